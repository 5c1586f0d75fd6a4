// 500 App creates through Pulumi's provider host against an emulator limiting the token to
// 50 requests per second: how close to the floor (500 / 50 s) the shared limiter gets, and that
// no create fails, none is duplicated and none is orphaned.
const { mkdtemp, writeFile, rm } = require("node:fs/promises");
const { tmpdir } = require("node:os");
const { join } = require("node:path");
const { ProviderHost } = require("../test/harness/provider-host");
const { providerText } = require("../dist/provider/provider-text");
const { spawnEmulator, report } = require("./util");

const APPS = 500;
const RATE = 50;

module.exports = async function scaleBench() {
  const emu = await spawnEmulator(["--rate-limit", String(RATE), "--setup-delay-ms", "200"]);
  const dir = await mkdtemp(join(tmpdir(), "hosting-bench-src-"));
  await writeFile(join(dir, "index.js"), "require('http').createServer().listen(8080);\n");
  const host = await ProviderHost.start();
  try {
    await host.configure({ "hosting:apiUrl": emu.url, "hosting:token": emu.token });
    const provider = providerText("App");
    const urn = (i) => `urn:pulumi:bench::hosting::pulumi-nodejs:dynamic/hosting:App::app-${i}`;
    // Check (local packaging and hashing) first, as the engine does before any create.
    const checked = await Promise.all(
      Array.from({ length: APPS }, (_, i) =>
        host.check(urn(i), {}, { __provider: provider, source: dir, name: `app-${i}` }),
      ),
    );
    await fetch(`${emu.url}/__emulator/stats`, { method: "DELETE" });
    const started = Date.now();
    const results = await Promise.allSettled(checked.map((c, i) => host.create(urn(i), c.inputs)));
    const wallS = (Date.now() - started) / 1000;
    const stats = await (await fetch(`${emu.url}/__emulator/stats`)).json();
    const state = await (await fetch(`${emu.url}/__emulator/state`)).json();
    const created = new Set(results.filter((r) => r.status === "fulfilled").map((r) => r.value.id));
    const failures = results.filter((r) => r.status === "rejected");
    const floorS = APPS / RATE;
    report(`scale: ${APPS} App creates through the provider host, emulator --rate-limit ${RATE}`, {
      "wall s": wallS.toFixed(2),
      "floor s (apps / rate)": floorS.toFixed(2),
      "ratio (target ≤ 1.15)": (wallS / floorS).toFixed(2),
      "failures (target 0)": failures.length,
      "apps on the server (target 500)": state.apps.length,
      "orphans (target 0)": state.apps.filter((a) => !created.has(a.id)).length,
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
    await host.stop();
    await emu.stop();
    await rm(dir, { recursive: true, force: true });
  }
};
