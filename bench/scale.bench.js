// 200 App creates through Pulumi's provider host against an emulator limiting the token to 50
// requests per second: how close to the floor (200 / 50 s) the shared limiter gets, from one
// process and from four that share the token and know nothing of each other (four stacks of a
// GitOps matrix deploying at once), and that no create fails, none is duplicated or orphaned.
// `--apps N` changes the number of creates.
const { mkdtemp, writeFile, rm } = require("node:fs/promises");
const { tmpdir } = require("node:os");
const { join } = require("node:path");
const { ProviderHost } = require("../test/harness/provider-host");
const { providerText } = require("../dist/provider/provider-text");
const { spawnEmulator, report, flag } = require("./util");

const RATE = 50;

async function createAll(apps, processes, dir) {
  const emu = await spawnEmulator(["--rate-limit", String(RATE), "--setup-delay-ms", "200"]);
  const hosts = await Promise.all(Array.from({ length: processes }, () => ProviderHost.start()));
  try {
    const provider = providerText("App");
    const urn = (i) => `urn:pulumi:bench::hosting::pulumi-nodejs:dynamic/hosting:App::app-${i}`;
    const hostOf = (i) => hosts[i % processes];
    for (const host of hosts) {
      await host.configure({ "hosting:apiUrl": emu.url, "hosting:token": emu.token });
    }
    // Check (local packaging and hashing) first, as the engine does before any create.
    const checked = await Promise.all(
      Array.from({ length: apps }, (_, i) =>
        hostOf(i).check(urn(i), {}, { __provider: provider, source: dir, name: `app-${i}` }),
      ),
    );
    // A fresh rate window: the checks sent nothing, but the configure may have.
    await new Promise((r) => setTimeout(r, 1100));
    await fetch(`${emu.url}/__emulator/stats`, { method: "DELETE" });
    const started = Date.now();
    const results = await Promise.allSettled(
      checked.map((c, i) => hostOf(i).create(urn(i), c.inputs)),
    );
    const wallS = (Date.now() - started) / 1000;
    const stats = await (await fetch(`${emu.url}/__emulator/stats`)).json();
    const state = await (await fetch(`${emu.url}/__emulator/state`)).json();
    const ids = results.filter((r) => r.status === "fulfilled").map((r) => r.value.id);
    const created = new Set(ids);
    const failures = results.filter((r) => r.status === "rejected");
    const floorS = apps / RATE;
    const who = processes === 1 ? "one provider host" : `${processes} provider hosts, one token`;
    report(`scale: ${apps} App creates through ${who}, emulator --rate-limit ${RATE}`, {
      "wall s": wallS.toFixed(2),
      "floor s (apps / rate)": floorS.toFixed(2),
      [`ratio (target ≤ ${processes === 1 ? "1.15" : "1.3"})`]: (wallS / floorS).toFixed(2),
      "failures (target 0)": failures.length,
      [`apps on the server (target ${apps})`]: state.apps.length,
      "orphans (target 0)": state.apps.filter((a) => !created.has(a.id)).length,
      "duplicates (target 0)": ids.length - created.size,
      "GET /apps calls": stats.requests["GET /apps"] ?? 0,
      "POST /apps calls": stats.requests["POST /apps"] ?? 0,
      "429s seen": stats.faults.rateLimited ?? 0,
      ...(failures.length
        ? {
            "first failure": String(failures[0].reason?.message ?? failures[0].reason).slice(
              0,
              200,
            ),
          }
        : {}),
    });
  } finally {
    await Promise.all(hosts.map((h) => h.stop()));
    await emu.stop();
  }
}

module.exports = async function scaleBench() {
  const apps = Number(flag("--apps") ?? 200);
  const dir = await mkdtemp(join(tmpdir(), "hosting-bench-src-"));
  await writeFile(join(dir, "index.js"), "require('http').createServer().listen(8080);\n");
  try {
    await createAll(apps, 1, dir);
    await createAll(apps, 4, dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
};
