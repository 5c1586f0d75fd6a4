// Refresh at scale through Pulumi's provider host, and the size of __provider per resource type.
const { Pool } = require("undici");
const { ProviderHost } = require("../test/harness/provider-host");
const { serialized } = require("./serialized");
const { spawnEmulator, seedApps, report, median } = require("./util");

module.exports = async function providerBench() {
  const sizes = {};
  for (const kind of ["App", "CustomDomain", "AppWebAccess", "AppAnalytics"]) {
    sizes[`${kind} bytes`] = Buffer.byteLength(await serialized(kind));
  }
  report("__provider size per resource type (target < 1024)", sizes);

  const emu = await spawnEmulator();
  try {
    await refreshAtScale(emu);
  } finally {
    await emu.stop();
  }
};

async function refreshAtScale(emu) {
  await seedApps(emu.url, 1000);
  const res = await fetch(`${emu.url}/__emulator/state`);
  const ids = (await res.json()).apps.map((a) => a.id);
  const host = await ProviderHost.start();
  await host.configure({ "hosting:apiUrl": emu.url, "hosting:token": emu.token });
  const provider = await serialized("App");

  const pool = new Pool(emu.url);
  const raw = [];
  for (let i = 0; i < 5; i++) {
    const t = Date.now();
    const r = await pool.request({
      method: "GET",
      path: "/apps",
      headers: { authorization: `Bearer ${emu.token}` },
    });
    await r.body.json();
    raw.push(Date.now() - t);
  }
  const rounds = [];
  let listCalls = 0;
  for (let round = 0; round < 3; round++) {
    await fetch(`${emu.url}/__emulator/stats`, { method: "DELETE" });
    await new Promise((r) => setTimeout(r, 1100)); // let the shared list expire between rounds
    const t = Date.now();
    await Promise.all(
      ids.map((id) =>
        host.read(id, `urn:pulumi:bench::hosting::pulumi-nodejs:dynamic/hosting:App::${id}`, {
          __provider: provider,
          name: "x",
        }),
      ),
    );
    rounds.push(Date.now() - t);
    const stats = await (await fetch(`${emu.url}/__emulator/stats`)).json();
    listCalls = Math.max(listCalls, stats.requests["GET /apps"] ?? 0);
  }
  report("refresh: read 1,000 apps in parallel through the provider host", {
    "GET /apps calls (worst of 3 rounds)": listCalls,
    "wall ms (median of 3)": median(rounds),
    "one raw GET /apps ms (median of 5)": median(raw),
  });
  await host.stop();
  await pool.close();
}
