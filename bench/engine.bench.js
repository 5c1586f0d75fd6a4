// This provider through the Pulumi CLI against the engine's own floor: the same CLI, the same
// machine, the same parallelism, running a no-op dynamic provider whose create only waits the
// emulator's setup delay (200 ms). For each of `pulumi up` creating N Apps, the unchanged
// `pulumi preview` and `pulumi destroy`, both sides are timed run after run, interleaved (ours,
// floor, ours, floor, …), each figure with the 1-minute load average beside it, and the medians
// compared. Then the provider-host cases against N/R (the rate limit's floor): four cold
// processes sharing one token making 2N creates, and one process making N.
//
// Options: `--apps N` (200), `--runs N` (3: medians of N interleaved pairs), `--no-hosts` (leave out
// the provider-host cases), `--only-hosts`, `--named` (Apps with `name` set; default: named by
// check from the URN, with `entrypoint` checked against the source), `--trace` (one more pair
// with every gRPC call of the program and the provider host recorded, and the emulator's request
// log: where the time goes; see bench/engine-trace.js), `--keep` (leave the trace files).
const { mkdtemp, mkdir, writeFile, rm, symlink } = require("node:fs/promises");
const os = require("node:os");
const { join, resolve } = require("node:path");
const { locate } = require("../scripts/pulumi-cli");
const { PulumiStack } = require("../test/helpers/pulumi");
const { requestLog } = require("../test/helpers/request-log");
const { spawnEmulator, report, flag, median } = require("./util");
const { createAll } = require("./scale.bench");
const { summarizeTrace } = require("./engine-trace");

const RATE = 50;
const SETUP_MS = 200;
const ROOT = resolve(__dirname, "..");
const TARGET = { up: 1.3, preview: 1.3, destroy: undefined, four: 1.3, one: 1.2 };

const load = () => os.loadavg()[0].toFixed(1);

/** A program folder whose node_modules links this repository's build and @pulumi/pulumi. */
async function programFolder(prefix, program) {
  const dir = await mkdtemp(join(os.tmpdir(), prefix));
  await mkdir(join(dir, "node_modules", "@pulumi"), { recursive: true });
  await symlink(ROOT, join(dir, "node_modules", "pulumi-hosting"));
  await symlink(
    join(ROOT, "node_modules", "@pulumi", "pulumi"),
    join(dir, "node_modules", "@pulumi", "pulumi"),
  );
  await writeFile(join(dir, "package.json"), '{ "name": "bench-engine", "main": "index.js" }\n');
  await writeFile(join(dir, "index.js"), program);
  return dir;
}

/** N Apps of one small source folder. */
function ourProgram(apps, named) {
  const name = named ? "name: `app-${i}`, " : "";
  return (
    'const hosting = require("pulumi-hosting");\n' +
    `for (let i = 0; i < ${apps}; i++) {\n` +
    `  new hosting.App(\`app-\${i}\`, { ${name}source: \`\${__dirname}/src\`, entrypoint: "index.js" });\n` +
    "}\n"
  );
}

/** N resources of a dynamic provider that does nothing but wait the setup delay in create. */
function floorProgram(apps) {
  return (
    'const pulumi = require("@pulumi/pulumi");\n' +
    "const provider = {\n" +
    "  async create() {\n" +
    `    await new Promise((r) => setTimeout(r, ${SETUP_MS}));\n` +
    "    return { id: `noop-${Date.now()}-${Math.random().toString(36).slice(2)}`, outs: {} };\n" +
    "  },\n" +
    "};\n" +
    "class Noop extends pulumi.dynamic.Resource {\n" +
    "  constructor(name) {\n" +
    '    super(provider, name, {}, undefined, "Noop");\n' +
    "  }\n" +
    "}\n" +
    `for (let i = 0; i < ${apps}; i++) new Noop(\`noop-\${i}\`);\n`
  );
}

/**
 * One side's up, unchanged preview and destroy, each timed as the whole CLI command (`up` with
 * `--skip-preview`: the preview is its own figure). `trace`: a folder for the gRPC trace.
 */
async function runSide(side, apps, o) {
  const ours = side === "ours";
  const emu = ours
    ? await spawnEmulator([
        "--rate-limit",
        String(RATE),
        "--setup-delay-ms",
        String(SETUP_MS),
        ...(o.trace ? ["--log"] : []),
      ])
    : undefined;
  const log = emu && o.trace ? requestLog(emu.child) : [];
  const dir = await programFolder(
    `hosting-bench-${side}-`,
    ours ? ourProgram(apps, o.named) : floorProgram(apps),
  );
  const figures = {};
  try {
    if (ours) {
      await mkdir(join(dir, "src"));
      await writeFile(
        join(dir, "src", "index.js"),
        "require('http').createServer().listen(8080);\n",
      );
    }
    const env = o.trace
      ? {
          NODE_OPTIONS: `--require ${join(__dirname, "trace-hook.js")}`,
          HOSTING_BENCH_TRACE: o.trace,
        }
      : {};
    const stack = new PulumiStack({ dir, project: "bench-engine", stack: "bench", env });
    await stack.init(
      ours
        ? { config: { "hosting:apiUrl": emu.url }, secrets: { "hosting:token": emu.token } }
        : {},
    );
    const timed = async (op, args, yes = ["--yes"]) => {
      const loadBefore = load();
      const start = Date.now();
      const r = await stack.pulumi([op, ...yes, "--non-interactive", "--stack", "bench", ...args], {
        timeoutMs: 30 * 60_000,
      });
      figures[op] = { s: r.ms / 1000, load: loadBefore, ok: r.code === 0, start, end: Date.now() };
      if (r.code !== 0)
        figures[op].failed = `${r.stdout}\n${r.stderr}`.trim().split("\n").slice(-40);
      return r;
    };
    await timed("up", ["--skip-preview", "--suppress-progress"]);
    if (ours) {
      const state = await (await fetch(`${emu.url}/__emulator/state`)).json();
      const stats = await (await fetch(`${emu.url}/__emulator/stats`)).json();
      figures.apps = state.apps.length;
      figures.throttled = stats.faults.rateLimited ?? 0;
    }
    await timed("preview", ["--expect-no-changes", "--suppress-progress"], []);
    await timed("destroy", ["--skip-preview", "--suppress-progress"]);
    if (ours)
      figures.appsAfterDestroy = (
        await (await fetch(`${emu.url}/__emulator/state`)).json()
      ).apps.length;
    figures.log = log;
    return figures;
  } finally {
    await emu?.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

const fmt = (f) => (f.ok ? `${f.s.toFixed(2)} s (load ${f.load})` : `FAILED (load ${f.load})`);

async function engineCases(apps, runs, named) {
  const found = locate();
  if ("missing" in found) {
    console.log(`\n## engine: skipped, ${found.missing}`);
    return;
  }
  const pairs = [];
  for (let r = 0; r < runs; r++) {
    const ours = await runSide("ours", apps, { named });
    const floor = await runSide("floor", apps, {});
    pairs.push({ ours, floor });
    const row = {};
    for (const op of ["up", "preview", "destroy"]) {
      row[`${op}: this provider`] = fmt(ours[op]);
      row[`${op}: the floor`] = fmt(floor[op]);
      if (ours[op].ok && floor[op].ok) row[`${op}: ratio`] = (ours[op].s / floor[op].s).toFixed(2);
    }
    row[`apps on the server after up (target ${apps})`] = ours.apps;
    row["apps left after destroy (target 0)"] = ours.appsAfterDestroy;
    row["429s the emulator answered (retried; none reached the user unless up failed)"] =
      ours.throttled;
    for (const [who, f] of [
      ["this provider", ours],
      ["the floor", floor],
    ]) {
      for (const op of ["up", "preview", "destroy"]) {
        if (f[op].failed) row[`${op} of ${who} failed`] = f[op].failed.join(" | ").slice(0, 600);
      }
    }
    report(`engine: run ${r + 1} of ${runs}, ${apps} resources, CLI ${found.version}`, row);
  }
  const summary = {};
  for (const op of ["up", "preview", "destroy"]) {
    const ok = pairs.filter((p) => p.ours[op].ok && p.floor[op].ok);
    if (!ok.length) continue;
    const o = median(ok.map((p) => p.ours[op].s));
    const f = median(ok.map((p) => p.floor[op].s));
    const loads = pairs.map((p) => p.ours[op].load).join(", ");
    summary[`${op}: this provider (median s)`] = o.toFixed(2);
    summary[`${op}: the floor (median s)`] = f.toFixed(2);
    const target = TARGET[op] ? ` (target ≤ ${TARGET[op]})` : "";
    summary[`${op}: ratio of medians${target}`] = (o / f).toFixed(2);
    summary[`${op}: ratio per run`] = ok
      .map((p) => (p.ours[op].s / p.floor[op].s).toFixed(2))
      .join(", ");
    summary[`${op}: load average at each of our runs`] = loads;
  }
  report(
    `engine: ${apps} resources, medians of ${runs} interleaved runs (emulator --rate-limit ${RATE} ` +
      `--setup-delay-ms ${SETUP_MS}; floor: a no-op dynamic provider whose create waits ${SETUP_MS} ms)`,
    summary,
  );
}

async function traceCase(apps, named) {
  const found = locate();
  if ("missing" in found) return;
  const traces = {};
  const keep = flag("--keep") !== undefined;
  for (const side of ["ours", "floor"]) {
    const dir = await mkdtemp(join(os.tmpdir(), `hosting-bench-trace-${side}-`));
    try {
      const figures = await runSide(side, apps, { named, trace: dir });
      traces[side] = { dir, figures };
      summarizeTrace(side === "ours" ? "this provider" : "the floor", dir, figures);
      for (const op of ["up", "preview", "destroy"]) {
        if (figures[op].failed) console.log(`  ${op} failed: ${figures[op].failed.join(" | ")}`);
      }
    } finally {
      if (!keep) await rm(dir, { recursive: true, force: true });
      else console.log(`  (trace kept in ${dir})`);
    }
  }
}

async function hostCases(apps, runs) {
  const dir = await mkdtemp(join(os.tmpdir(), "hosting-bench-src-"));
  await writeFile(join(dir, "index.js"), "require('http').createServer().listen(8080);\n");
  try {
    for (const [processes, creates, target] of [
      [4, 2 * apps, TARGET.four],
      [1, apps, TARGET.one],
    ]) {
      const walls = [];
      const loads = [];
      for (let r = 0; r < runs; r++) {
        loads.push(load());
        walls.push(await createAll(creates, processes, dir));
      }
      const floorS = creates / RATE;
      report(
        `engine: ${creates} creates through ${processes === 1 ? "one cold provider host" : `${processes} cold provider hosts sharing one token`}, ${runs} runs`,
        {
          "wall s (each run)": walls.map((w, i) => `${w.toFixed(2)} (load ${loads[i]})`).join(", "),
          "N/R floor s": floorS.toFixed(2),
          [`median ratio (target ≤ ${target})`]: (median(walls) / floorS).toFixed(2),
        },
      );
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

module.exports = async function engineBench() {
  const apps = Number(flag("--apps") ?? 200);
  const runs = Number(flag("--runs") ?? 3);
  const named = flag("--named") !== undefined;
  console.log(
    `\n# engine bench: load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")}`,
  );
  if (flag("--only-hosts") === undefined) {
    if (flag("--trace") !== undefined) await traceCase(apps, named);
    else await engineCases(apps, runs, named);
  }
  if (flag("--no-hosts") === undefined) await hostCases(apps, runs);
};
