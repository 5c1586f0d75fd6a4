// The App's source: check (hash only) against the floor of reading and hashing every file, and
// the memory of check and create, on a generated 240 MB source of 10,005 files (100 folders of
// 100 small files, four 50 MB binaries). Each side runs in its own fresh process; floor, check
// and create take turns within each round, so a ratio is measured under one load.
const { execFile } = require("node:child_process");
const { randomBytes } = require("node:crypto");
const { mkdir, mkdtemp, rm, writeFile } = require("node:fs/promises");
const { tmpdir, loadavg } = require("node:os");
const { join } = require("node:path");
const { promisify } = require("node:util");
const { spawnEmulator, report, median } = require("./util");

const MB = 2 ** 20;
const ROUNDS = Number(process.env.SOURCE_BENCH_ROUNDS ?? 3);

async function generate(root) {
  await writeFile(join(root, "index.js"), "require('http').createServer().listen(8080);\n");
  for (let d = 0; d < 100; d++) {
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
    const chunks = Array.from({ length: 50 }, () => randomBytes(MB));
    await writeFile(join(bin, `blob${i}.bin`), Buffer.concat(chunks));
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

module.exports = async function sourceBench() {
  const root = await mkdtemp(join(tmpdir(), "hosting-bench-source-"));
  const emu = await spawnEmulator(["--setup-delay-ms", "0", "--max-upload-bytes", String(2 ** 30)]);
  try {
    await generate(root);
    const env = { HOSTING_API_URL: emu.url, HOSTING_TOKEN: emu.token };
    await side("floor", root, env); // page cache warm for everybody
    const rows = [];
    for (let i = 0; i < ROUNDS; i++) {
      const load = loadavg()[0].toFixed(2);
      const floor = await side("floor", root, env);
      const check = await side("check", root, env);
      const create = await side("create", root, env);
      rows.push({ floor, check, create, load });
    }
    const f = (x, d = 2) => x.toFixed(d);
    const ratios = rows.map((r) => r.check.ms / r.floor.ms);
    report("source (240 MB, 10,005 files; each side a fresh process, rounds interleaved)", {
      ...Object.fromEntries(
        rows.map((r, i) => [
          `round ${i + 1} (load ${r.load})`,
          `floor ${f(r.floor.ms, 0)} ms +${f(r.floor.rssMb, 0)} MB | check ${f(r.check.ms, 0)} ms ` +
            `+${f(r.check.rssMb, 0)} MB | create ${f(r.create.ms, 0)} ms +${f(r.create.rssMb, 0)} MB`,
        ]),
      ),
      "check vs read+hash floor (goal <= 1.3x)": `${f(median(ratios))}x median (${ratios.map((x) => f(x)).join(", ")})`,
      "check vs floor, best of each (less noise on a loaded machine)": `${f(Math.min(...rows.map((r) => r.check.ms)) / Math.min(...rows.map((r) => r.floor.ms)))}x`,
      "check RSS over baseline (goal <= 96 MB)": `${f(median(rows.map((r) => r.check.rssMb)), 1)} MB median`,
      "create RSS over baseline (goal <= 96 MB)": `${f(median(rows.map((r) => r.create.rssMb)), 1)} MB median`,
      "create wall (pack + upload + setup)": `${f(median(rows.map((r) => r.create.ms)), 0)} ms median`,
      "floor RSS over baseline": `${f(median(rows.map((r) => r.floor.rssMb)), 1)} MB median`,
    });
  } finally {
    await emu.stop();
    await rm(root, { recursive: true, force: true });
  }
};
