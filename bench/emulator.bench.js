// Requests per second the emulator serves for GET /apps holding 1,000 apps.
const { Pool } = require("undici");
const { spawnEmulator, seedApps, report } = require("./util");

module.exports = async function emulatorBench() {
  const emu = await spawnEmulator();
  await seedApps(emu.url, 1000);
  const pool = new Pool(emu.url, { connections: 16 });
  const once = async () => {
    const res = await pool.request({
      method: "GET",
      path: "/apps",
      headers: { authorization: `Bearer ${emu.token}` },
    });
    await res.body.dump();
    if (res.statusCode !== 200) throw new Error(`status ${res.statusCode}`);
  };
  for (let i = 0; i < 50; i++) await once();
  let done = 0;
  const until = Date.now() + 5000;
  const started = Date.now();
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (Date.now() < until) {
        await once();
        done++;
      }
    }),
  );
  const secs = (Date.now() - started) / 1000;
  report("emulator: GET /apps with 1,000 apps (16 connections, 5 s)", {
    requests: done,
    "requests per second": (done / secs).toFixed(0),
  });
  await pool.close();
  await emu.stop();
};
