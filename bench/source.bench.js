// The App's source, every figure against its floor measured in the same round:
//   - check (hash only) against reading and hashing every file;
//   - a second check of the unchanged tree (what a preview costs) against that same floor;
//   - create (pack + upload + setup) against one deflate pass over the same bytes sent over
//     loopback;
//   - the memory of each, over a baseline, and of create on a tree of many small files.
// The issue's sizes by default: 240 MB of 10,005 files (100 folders of 100 small files, four
// 50 MB binaries) and 50,000 small files. `--quick`: a quarter of each. `--rounds N` (default 1,
// or SOURCE_BENCH_ROUNDS). Each side runs in its own fresh process; the sides of a round run one
// after another, so a ratio is measured under one load.
const { execFile } = require("node:child_process");
const { randomBytes } = require("node:crypto");
const { mkdir, mkdtemp, rm, writeFile } = require("node:fs/promises");
const { createServer } = require("node:net");
const { once } = require("node:events");
const { tmpdir, loadavg } = require("node:os");
const { join } = require("node:path");
const { promisify } = require("node:util");
const { spawnEmulator, report, median, flag } = require("./util");

const MB = 2 ** 20;

async function generate(root, folders, blobMb) {
  await writeFile(join(root, "index.js"), "require('http').createServer().listen(8080);\n");
  for (let d = 0; d < folders; d++) {
    const dir = join(root, `pkg${String(d).padStart(3, "0")}`);
    await mkdir(dir);
    for (let f = 0; f < 100; f++) {
      // ~4 KB of text-like content (compressible, as source files are), unique per file.
      const line = `// ${d}/${f} ${randomBytes(24).toString("base64")}\n`;
      await writeFile(join(dir, `file${f}.js`), line.repeat(64));
    }
  }
  const bin = join(root, "assets");
  await mkdir(bin);
  for (let i = 0; i < 4; i++) {
    const chunks = Array.from({ length: blobMb }, () => randomBytes(MB));
    await writeFile(join(bin, `blob${i}.bin`), Buffer.concat(chunks));
  }
}

/** `count` files of ~200 bytes, 500 to a folder. */
async function generateSmall(root, count) {
  for (let i = 0; i < count; i++) {
    const dir = join(root, `d${Math.floor(i / 500)}`);
    if (i % 500 === 0) await mkdir(dir);
    await writeFile(
      join(dir, `f${i}.js`),
      `module.exports = ${JSON.stringify(randomBytes(64).toString("hex"))};\n`,
    );
  }
}

async function side(mode, root, env) {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ["--expose-gc", join(__dirname, "source-child.js"), mode, root],
    { env: { ...process.env, ...env }, maxBuffer: MB },
  );
  const r = JSON.parse(stdout.trim().split("\n").pop());
  return { ms: r.ms, rssMb: (r.peak - r.baseline) / MB };
}

/** A loopback sink for create's floor: reads and drops every byte. */
async function sink() {
  const server = createServer((s) => s.resume());
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return server;
}

module.exports = async function sourceBench() {
  const quick = flag("--quick") !== undefined;
  const rounds = Number(flag("--rounds") ?? process.env.SOURCE_BENCH_ROUNDS ?? 1);
  const folders = quick ? 25 : 100;
  const blobMb = quick ? 12 : 50;
  const smallCount = quick ? 12_500 : 50_000;
  const root = await mkdtemp(join(tmpdir(), "hosting-bench-source-"));
  const small = await mkdtemp(join(tmpdir(), "hosting-bench-small-"));
  const emu = await spawnEmulator(["--setup-delay-ms", "0", "--max-upload-bytes", String(2 ** 30)]);
  const drop = await sink();
  try {
    await generate(root, folders, blobMb);
    const env = {
      HOSTING_API_URL: emu.url,
      HOSTING_TOKEN: emu.token,
      BENCH_SINK_PORT: String(drop.address().port),
    };
    await side("floor", root, env); // page cache warm for everybody
    const rows = [];
    for (let i = 0; i < rounds; i++) {
      const load = loadavg()[0].toFixed(2);
      const floor = await side("floor", root, env);
      // The first check of a round with an empty index cache, the second with what it left.
      const cache = {
        ...env,
        HOSTING_CACHE_DIR: await mkdtemp(join(tmpdir(), "hosting-bench-index-")),
      };
      const check = await side("check", root, cache);
      const again = await side("check", root, cache);
      await rm(cache.HOSTING_CACHE_DIR, { recursive: true, force: true });
      const createFloor = await side("create-floor", root, env);
      const create = await side("create", root, env);
      rows.push({ floor, check, again, createFloor, create, load });
    }
    await generateSmall(small, smallCount);
    await side("floor", small, env);
    const smallCreate = await side("create", small, env);
    const f = (x, d = 2) => x.toFixed(d);
    const ratio = (a, b) => {
      const xs = rows.map((r) => r[a].ms / r[b].ms);
      return `${f(median(xs))}x${xs.length > 1 ? ` median (${xs.map((x) => f(x)).join(", ")})` : ""}`;
    };
    const rss = (k) => `${f(median(rows.map((r) => r[k].rssMb)), 1)} MB`;
    const ms = (k) => `${f(median(rows.map((r) => r[k].ms)), 0)} ms`;
    const mb = Math.round((folders * 100 * 4 * 1024 + 4 * blobMb * MB) / MB);
    const files = folders * 100 + 5;
    report(`source (${mb} MB, ${files.toLocaleString("en")} files; each side a fresh process)`, {
      ...Object.fromEntries(
        rows.map((r, i) => [
          `round ${i + 1} (load ${r.load})`,
          `floor ${f(r.floor.ms, 0)} ms | check ${f(r.check.ms, 0)} ms | check again ` +
            `${f(r.again.ms, 0)} ms | create floor ${f(r.createFloor.ms, 0)} ms | create ` +
            `${f(r.create.ms, 0)} ms`,
        ]),
      ),
      "check vs read+hash floor (goal ≤ 1.3x)": ratio("check", "floor"),
      "check RSS over baseline (goal ≤ 96 MB)": `${rss("check")} (the floor's ${rss("floor")})`,
      "create vs deflate + loopback floor (goal ≤ 1.3x)": `${ratio("create", "createFloor")} (${ms("create")} vs ${ms("createFloor")})`,
      "create RSS over baseline (goal ≤ 96 MB)": `${rss("create")} (the floor's ${rss("createFloor")})`,
      [`${smallCount.toLocaleString("en")} small files: create RSS (goal ≤ 96 MB)`]: `${f(smallCreate.rssMb, 1)} MB (${f(smallCreate.ms, 0)} ms)`,
      "second check of the unchanged tree vs read+hash floor (goal ≤ 0.25x)": ratio(
        "again",
        "floor",
      ),
    });
  } finally {
    drop.close();
    await emu.stop();
    await rm(root, { recursive: true, force: true });
    await rm(small, { recursive: true, force: true });
  }
};
