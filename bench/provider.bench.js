// Refresh at scale through Pulumi's provider host, the checks of Apps sharing one source folder
// (one at a time, as the engine sends them), and the size of __provider per resource type.
const { mkdtemp, rm, writeFile } = require("node:fs/promises");
const os = require("node:os");
const { join } = require("node:path");
const { Pool } = require("undici");
const { ProviderHost } = require("../test/helpers/provider-host");
const { providerText } = require("../dist/provider/provider-text");
const { spawnEmulator, seedApps, report, median, percentile } = require("./util");

module.exports = async function providerBench() {
  const sizes = {};
  for (const kind of ["App", "CustomDomain", "AppWebAccess", "AppAnalytics"]) {
    sizes[`${kind} bytes`] = Buffer.byteLength(providerText(kind));
  }
  report("__provider size per resource type (target < 1024)", sizes);

  const emu = await spawnEmulator();
  try {
    await refreshAtScale(emu);
    await checksOfOneFolder(emu);
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
  const provider = providerText("App");

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
  const urn = (id) => `urn:pulumi:bench::hosting::pulumi-nodejs:dynamic/hosting:App::${id}`;
  const minimal = (prov) => () => ({ __provider: prov, name: "x" });
  const readAll = (prov, stateOf) =>
    Promise.all(ids.map((id) => host.read(id, urn(id), stateOf(id))));
  // What a refresh really sends: each resource's state, i.e. the outputs of the last read. The
  // no-op echoes it, as a provider that does nothing would.
  const first = await readAll(provider, minimal(provider));
  const states = new Map(first.map((r) => [r.id, r.properties]));
  const stateFor = (prov) => (id) => ({ ...states.get(id), __provider: prov });
  // The same no-op, answering with outputs (and inputs, if ours sends them) the size of ours.
  const sample = first[0];
  const outs = JSON.stringify({ ...sample.properties, __provider: undefined });
  const ins = sample.inputs ? JSON.stringify({ ...sample.inputs, __provider: undefined }) : "";
  const sized =
    `exports.handler = () => ({ read: async (id, props) => ({ id, ` +
    `props: { ...props, ...${outs} }${ins ? `, inputs: ${ins}` : ""} }) });\n`;
  // Load the providers in the host before timing.
  await readAll(noop, minimal(noop));
  await readAll(sized, minimal(sized));

  const rounds = { ours: [], noop: [], oursState: [], noopState: [], sized: [] };
  let listCalls = 0;
  const timed = async (into, prov, stateOf) => {
    const t = Date.now();
    await readAll(prov, stateOf);
    rounds[into].push(Date.now() - t);
  };
  for (let round = 0; round < 7; round++) {
    // Alternate who goes first, so that drift on the machine hits both sides alike; before each
    // of ours, wait for the shared list to expire, so that every round of ours lists again.
    const expire = () => new Promise((r) => setTimeout(r, 1100));
    const pair = async (ours, floor) => {
      if (round % 2 === 1) await floor();
      await expire();
      await fetch(`${emu.url}/__emulator/stats`, { method: "DELETE" });
      await ours();
      const stats = await (await fetch(`${emu.url}/__emulator/stats`)).json();
      listCalls = Math.max(listCalls, stats.requests["GET /apps"] ?? 0);
      if (round % 2 === 0) await floor();
    };
    await pair(
      () => timed("oursState", provider, stateFor(provider)),
      () => timed("noopState", noop, stateFor(noop)),
    );
    await pair(
      () => timed("ours", provider, minimal(provider)),
      () => timed("noop", noop, minimal(noop)),
    );
    await timed("sized", sized, minimal(sized));
  }
  const spread = (xs) => `${median(xs)} (${Math.min(...xs)}–${Math.max(...xs)})`;
  const ratio = (a, b) => (median(rounds[a]) / median(rounds[b])).toFixed(2);
  report("refresh: read 1,000 apps in parallel through the provider host (7 rounds)", {
    "GET /apps calls (worst round; target ≤ 3)": listCalls,
    "one raw GET /apps ms (median of 5)": median(raw),
  });
  report("  each read carries the resource's state, as a refresh does", {
    "hosting provider wall ms, median (min–max)": spread(rounds.oursState),
    "no-op provider (echoes the state) wall ms, median (min–max)": spread(rounds.noopState),
    "ratio (target ≤ 1.5)": ratio("oursState", "noopState"),
  });
  report("  each read carries only { __provider, name } (the earlier method)", {
    "hosting provider wall ms, median (min–max)": spread(rounds.ours),
    "no-op provider wall ms, median (min–max)": spread(rounds.noop),
    ratio: ratio("ours", "noop"),
    "no-op answering with our output size, wall ms, median (min–max)": spread(rounds.sized),
    "ratio of ours to that": ratio("ours", "sized"),
  });
  await host.stop();
  await pool.close();
}

/**
 * `pulumi preview` and `up` check one resource at a time, so a check's time is paid per App. 200
 * Apps of one small folder (older than the racy window), checked in turn through the host; the
 * no-op provider's check is the floor. Each check has its own URN, as each App has.
 */
async function checksOfOneFolder(emu) {
  const dir = await mkdtemp(join(os.tmpdir(), "bench-checks-"));
  await writeFile(join(dir, "index.js"), "console.log('hi');\n");
  await writeFile(join(dir, "package.json"), '{ "name": "app" }\n');
  await new Promise((r) => setTimeout(r, 2100)); // past the racy window: the walk is kept
  const host = await ProviderHost.start();
  try {
    await host.configure({ "hosting:apiUrl": emu.url, "hosting:token": emu.token });
    const provider = providerText("App");
    const noop = "exports.handler = () => ({ check: async (olds, news) => ({ inputs: news }) });\n";
    const urn = (i) => `urn:pulumi:bench::hosting::pulumi-nodejs:dynamic/hosting:App::app-${i}`;
    const props = (prov) => ({ __provider: prov, source: dir, entrypoint: "index.js" });
    const times = { ours: [], noop: [] };
    for (const prov of [provider, noop]) {
      await host.check(urn("warm"), {}, props(prov)); // the provider loaded before timing
    }
    for (let i = 0; i < 200; i++) {
      for (const [side, prov] of i % 2
        ? [
            ["noop", noop],
            ["ours", provider],
          ]
        : [
            ["ours", provider],
            ["noop", noop],
          ]) {
        const t = process.hrtime.bigint();
        await host.check(urn(i), {}, props(prov));
        times[side].push(Number(process.hrtime.bigint() - t) / 1e6);
      }
    }
    const sum = (xs) => xs.reduce((a, b) => a + b, 0);
    const p90 = (xs) => percentile(xs, 90);
    report("checks of 200 Apps of one source folder, one at a time, through the provider host", {
      "hosting provider ms per check, median (p90)": `${median(times.ours).toFixed(2)} (${p90(times.ours).toFixed(2)})`,
      "no-op provider ms per check, median (p90)": `${median(times.noop).toFixed(2)} (${p90(times.noop).toFixed(2)})`,
      "hosting provider s for 200": (sum(times.ours) / 1000).toFixed(2),
      "no-op provider s for 200": (sum(times.noop) / 1000).toFixed(2),
      "load average": os.loadavg()[0].toFixed(1),
    });
  } finally {
    await host.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

module.exports.checksOfOneFolder = checksOfOneFolder;
