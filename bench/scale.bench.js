// 200 App creates through Pulumi's provider host against an emulator limiting the token to 50
// requests per second: how close to the floor (200 / 50 s) the shared limiter gets, from one
// process and from four that share the token and know nothing of each other (four stacks of a
// GitOps matrix deploying at once), and that no create fails, none is duplicated or orphaned.
// `--apps N` changes the number of creates; `--processes N` runs only that case (0: only
// `pulumi up`); `--no-up` leaves out `pulumi up`; `--trace` prints the requests by arrival per
// 250 ms (`--trace-ms` sets it); `--runs N` repeats the provider-host cases and prints their
// median (a single run of four processes on 2 cores swings by ±15 %); `--warm` lets each provider
// host make one create against another emulator before the timer starts (see warmUp).
const { mkdtemp, mkdir, writeFile, rm, symlink } = require("node:fs/promises");
const { tmpdir } = require("node:os");
const { join, resolve } = require("node:path");
const { locate } = require("../scripts/pulumi-cli");
const { PulumiStack } = require("../test/helpers/pulumi");
const { requestLog } = require("../test/helpers/request-log");
const { ProviderHost } = require("../test/helpers/provider-host");
const { providerText } = require("../dist/provider/provider-text");
const { spawnEmulator, report, flag, median } = require("./util");

const RATE = 50;
/** `pulumi up`'s default parallelism on this machine: 4 per core. */
const UP_PARALLEL = 4 * require("node:os").cpus().length;
/** The emulator's setup here: no create that waits for setup can return sooner after its POST. */
const SETUP_S = 0.2;
/** The App's first look comes this long after its POST's answer; the setup runs meanwhile. */
const FIRST_LOOK_S = require("../dist/provider/app/create-app").FIRST_LOOK_MS / 1000;
/** The command line's options, read once. */
const TRACE = flag("--trace") !== undefined;
const TRACE_MS = Number(flag("--trace-ms") ?? 250);
const WARM = flag("--warm") !== undefined;

/** The provider-host case's name and its target ratio, in each run's report and the median's. */
const hostCase = (processes) => ({
  who:
    (processes === 1 ? "one provider host" : `${processes} provider hosts, one token`) +
    (WARM ? " (warmed: one create each first)" : ""),
  target: processes === 1 ? "1.2" : "1.3",
});

/** The requests the emulator answered, counted by arrival in slots of `slotMs` from `start`. */
function printTrace(log, start, slotMs = TRACE_MS) {
  const rows = new Map();
  for (const e of log) {
    const slot = Math.floor((e.arrivedAt - start) / slotMs);
    const row = rows.get(slot) ?? {};
    const key = `${e.method}${e.status === 429 ? " 429" : ""}`;
    row[key] = (row[key] ?? 0) + 1;
    rows.set(slot, row);
  }
  for (const slot of [...rows.keys()].sort((a, b) => a - b)) {
    const row = Object.entries(rows.get(slot)).map(([k, n]) => `${k} ${n}`);
    console.log(`    ${String(slot * slotMs).padStart(6)} ms  ${row.join(", ")}`);
  }
}

/**
 * `--warm`: one App create per host, through a second account on another emulator, before the
 * timed creates. A process's first HTTP request costs it 0.15-0.3 s of CPU on V8's background
 * threads (undici's HTTP parser is WebAssembly, compiled then); four hosts that start their
 * creates in the same millisecond on 2 cores pay it together, and up to two fifths of the first
 * rate window go unused. Warm, the figure shows what the limiter does on its own.
 */
async function warmUp(hosts, provider, dir) {
  await Promise.all(
    hosts.map(async (host, k) => {
      const urn = `urn:pulumi:bench::hosting::pulumi-nodejs:dynamic/hosting:App::warm-${k}`;
      const props = { __provider: provider, source: dir, name: `warm-${k}`, account: "warm" };
      const checked = await host.check(urn, {}, props);
      await host.create(urn, checked.inputs);
    }),
  );
}

async function createAll(apps, processes, dir) {
  const emu = await spawnEmulator([
    "--rate-limit",
    String(RATE),
    "--setup-delay-ms",
    String(SETUP_S * 1000),
    ...(TRACE ? ["--log"] : []),
  ]);
  const log = TRACE ? requestLog(emu.child) : [];
  const warm = WARM ? await spawnEmulator([]) : undefined;
  const env = warm ? { HOSTING_WARM_API_URL: warm.url, HOSTING_WARM_TOKEN: warm.token } : {};
  const hosts = await Promise.all(Array.from({ length: processes }, () => ProviderHost.start(env)));
  try {
    const provider = providerText("App");
    const urn = (i) => `urn:pulumi:bench::hosting::pulumi-nodejs:dynamic/hosting:App::app-${i}`;
    const hostOf = (i) => hosts[i % processes];
    for (const host of hosts) {
      await host.configure({ "hosting:apiUrl": emu.url, "hosting:token": emu.token });
    }
    if (warm) await warmUp(hosts, provider, dir);
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
    const { who, target } = hostCase(processes);
    report(`scale: ${apps} App creates through ${who}, emulator --rate-limit ${RATE}`, {
      "wall s": wallS.toFixed(2),
      "floor s (apps / rate)": floorS.toFixed(2),
      [`ratio (target ≤ ${target})`]: (wallS / floorS).toFixed(2),
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
    if (TRACE) printTrace(log, started);
    return wallS;
  } finally {
    await Promise.all(hosts.map((h) => h.stop()));
    await emu.stop();
    await warm?.stop();
  }
}

/**
 * The same creates through `pulumi up` (default parallelism, local file backend): one program of
 * `apps` Apps. Timed as the span of the API requests (engine and host start-up are not the
 * creates'), and the whole `pulumi up` beside it.
 */
async function createThroughPulumi(apps) {
  const emu = await spawnEmulator([
    "--rate-limit",
    String(RATE),
    "--setup-delay-ms",
    String(SETUP_S * 1000),
    "--log",
  ]);
  const log = requestLog(emu.child);
  const dir = await mkdtemp(join(tmpdir(), "hosting-bench-up-"));
  try {
    const root = resolve(__dirname, "..");
    await mkdir(join(dir, "node_modules", "@pulumi"), { recursive: true });
    await symlink(root, join(dir, "node_modules", "pulumi-hosting"));
    await symlink(
      join(root, "node_modules", "@pulumi", "pulumi"),
      join(dir, "node_modules", "@pulumi", "pulumi"),
    );
    await mkdir(join(dir, "src"));
    await writeFile(join(dir, "src", "index.js"), "require('http').createServer().listen(8080);\n");
    await writeFile(join(dir, "package.json"), '{ "name": "bench-scale", "main": "index.js" }\n');
    await writeFile(
      join(dir, "index.js"),
      'const hosting = require("pulumi-hosting");\n' +
        `for (let i = 0; i < ${apps}; i++) new hosting.App(\`app-\${i}\`, ` +
        "{ source: `${__dirname}/src`, name: `app-${i}` });\n",
    );
    const stack = new PulumiStack({ dir, project: "bench-scale", stack: "bench" });
    await stack.init({
      config: { "hosting:apiUrl": emu.url },
      secrets: { "hosting:token": emu.token },
    });
    const started = Date.now();
    const up = await stack.up(["--suppress-progress"], { timeoutMs: 30 * 60_000 });
    const failed = up.ok ? undefined : up.stdout.split("\n").slice(-8).join(" | ");
    const upS = (Date.now() - started) / 1000;
    const state = await (await fetch(`${emu.url}/__emulator/state`)).json();
    const spanS = log.length ? (log.at(-1).at - log[0].at) / 1000 : NaN;
    if (TRACE && log.length) printTrace(log, log[0].arrivedAt);
    const floorS = apps / RATE;
    report(`scale: ${apps} App creates through \`pulumi up\` (default parallelism)`, {
      "API span s (first to last request)": spanS.toFixed(2),
      "floor s (apps / rate)": floorS.toFixed(2),
      "ratio (target ≤ 1.15)": (spanS / floorS).toFixed(2),
      "whole pulumi up s (engine, host and program start-up included)": upS.toFixed(2),
      // The engine runs 4 operations per core at once by default, and each create waits after
      // its POST for setup; this provider looks first when FIRST_LOOK_S has passed.
      [`setup floor s (apps × ${SETUP_S} s / ${UP_PARALLEL} at once)`]: (
        (apps * SETUP_S) /
        UP_PARALLEL
      ).toFixed(2),
      [`first-look floor s (apps × ${FIRST_LOOK_S} s / ${UP_PARALLEL} at once)`]: (
        (apps * Math.max(SETUP_S, FIRST_LOOK_S)) /
        UP_PARALLEL
      ).toFixed(2),
      [`apps on the server (target ${apps})`]: state.apps.length,
      "GET /apps calls": log.filter((e) => e.method === "GET" && e.url === "/apps").length,
      "429s seen": log.filter((e) => e.status === 429).length,
      ...(failed ? { "pulumi up failed": failed.slice(0, 400) } : {}),
    });
  } finally {
    await emu.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

async function scaleBench() {
  const apps = Number(flag("--apps") ?? 200);
  const dir = await mkdtemp(join(tmpdir(), "hosting-bench-src-"));
  await writeFile(join(dir, "index.js"), "require('http').createServer().listen(8080);\n");
  try {
    const only = flag("--processes");
    const runs = Number(flag("--runs") ?? 1);
    for (const n of only ? [Number(only)] : [1, 4]) {
      if (n === 0) continue;
      const walls = [];
      for (let r = 0; r < runs; r++) walls.push(await createAll(apps, n, dir));
      if (runs > 1) {
        const { who, target } = hostCase(n);
        report(`scale: ${apps} App creates through ${who}, ${runs} runs`, {
          "wall s (each run)": walls.map((w) => w.toFixed(2)).join(", "),
          [`median ratio (target ≤ ${target})`]: (median(walls) / (apps / RATE)).toFixed(2),
        });
      }
    }
    if (flag("--no-up")) return;
    const found = locate();
    if ("missing" in found)
      console.log(`\n## scale through \`pulumi up\`: skipped, ${found.missing}`);
    else await createThroughPulumi(apps);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

module.exports = scaleBench;
/** The provider-host case, for the engine bench's figures against N/R. */
module.exports.createAll = createAll;
