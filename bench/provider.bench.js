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
  // A provider that does nothing: the floor set by the engine's gRPC and the host itself. Its
  // `__provider` text is written out like ours, so text size does not tip the comparison.
  const noop = "exports.handler = () => ({ read: async (id, props) => ({ id, props }) });\n";
  const readAll = (prov) =>
    Promise.all(
      ids.map((id) =>
        host.read(id, `urn:pulumi:bench::hosting::pulumi-nodejs:dynamic/hosting:App::${id}`, {
          __provider: prov,
          name: "x",
        }),
      ),
    );
  // The same no-op, answering with outputs (and inputs, if ours sends them) the size of ours.
  const sample = await readAll(provider).then((r) => r[0]);
  const outs = JSON.stringify({ ...sample.properties, __provider: undefined });
  const ins = sample.inputs ? JSON.stringify({ ...sample.inputs, __provider: undefined }) : "";
  const sized =
    `exports.handler = () => ({ read: async (id, props) => ({ id, ` +
    `props: { ...props, ...${outs} }${ins ? `, inputs: ${ins}` : ""} }) });\n`;
  await readAll(noop); // load the providers in the host before timing
  await readAll(sized);
  const ours = [];
  const floor = [];
  const sizedFloor = [];
  let listCalls = 0;
  const timed = async (prov, into) => {
    const t = Date.now();
    await readAll(prov);
    into.push(Date.now() - t);
  };
  for (let round = 0; round < 7; round++) {
    await new Promise((r) => setTimeout(r, 1100)); // let the shared list expire between rounds
    await fetch(`${emu.url}/__emulator/stats`, { method: "DELETE" });
    // Alternate who goes first, so that drift on the machine hits both sides alike.
    if (round % 2 === 1) await timed(noop, floor);
    await timed(provider, ours);
    const stats = await (await fetch(`${emu.url}/__emulator/stats`)).json();
    listCalls = Math.max(listCalls, stats.requests["GET /apps"] ?? 0);
    if (round % 2 === 0) await timed(noop, floor);
    await timed(sized, sizedFloor);
  }
  const spread = (xs) => `${Math.min(...xs)}–${Math.max(...xs)}`;
  report("refresh: read 1,000 apps in parallel through the provider host (7 rounds)", {
    "GET /apps calls (worst round; target ≤ 3)": listCalls,
    "hosting provider wall ms, median (min–max)": `${median(ours)} (${spread(ours)})`,
    "no-op provider wall ms, median (min–max)": `${median(floor)} (${spread(floor)})`,
    "ratio (target ≤ 1.5)": (median(ours) / median(floor)).toFixed(2),
    "no-op with our output size, wall ms, median (min–max)": `${median(sizedFloor)} (${spread(sizedFloor)})`,
    "ratio to that": (median(ours) / median(sizedFloor)).toFixed(2),
    "one raw GET /apps ms (median of 5)": median(raw),
  });
  await host.stop();
  await pool.close();
}
