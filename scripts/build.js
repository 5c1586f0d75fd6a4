// Builds dist/ from src/ with tsc, after removing dist/ (so a deleted module leaves no file).
// With --if-stale (npm test, demo, bench, pack, jest's global setup) it builds only when src/,
// the tsconfig files or the TypeScript version changed since the last build: one build per
// command, none when dist/ is already what src/ gives.
// Usage: node scripts/build.js [--if-stale]
const { spawnSync } = require("node:child_process");
const { createHash } = require("node:crypto");
const {
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} = require("node:fs");
const { dirname, join } = require("node:path");

const ROOT = join(__dirname, "..");
const DIST = join(ROOT, "dist");
// Under node_modules: `npm ci` starts it afresh, and it is never packed or committed.
const STAMP = join(ROOT, "node_modules", ".cache", "pulumi-hosting", "build-stamp");
const CONFIGS = ["tsconfig.json", "tsconfig.build.json"];

function sources() {
  return readdirSync(join(ROOT, "src"), { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".ts"))
    .sort();
}

/** A digest of everything the output depends on: sources, configs, compiler version. */
function inputsDigest(files) {
  const hash = createHash("sha256");
  hash.update(require("typescript/package.json").version);
  for (const f of [...CONFIGS, ...files.map((s) => join("src", s))]) {
    hash.update(`\0${f}\0`).update(readFileSync(join(ROOT, f)));
  }
  return hash.digest("hex");
}

function isFresh(files, digest) {
  if (!existsSync(STAMP) || readFileSync(STAMP, "utf8") !== digest) return false;
  return files.every((f) => existsSync(join(DIST, f.replace(/\.ts$/, ".js"))));
}

function build({ ifStale = false } = {}) {
  const files = sources();
  const digest = inputsDigest(files);
  if (ifStale && isFresh(files, digest)) return false;
  rmSync(STAMP, { force: true });
  rmSync(DIST, { recursive: true, force: true });
  const tsc = require.resolve("typescript/bin/tsc");
  const r = spawnSync(process.execPath, [tsc, "-p", join(ROOT, "tsconfig.build.json")], {
    cwd: ROOT,
    stdio: "inherit",
  });
  if (r.status !== 0) throw new Error(`tsc failed (exit code ${r.status ?? r.signal})`);
  mkdirSync(dirname(STAMP), { recursive: true });
  writeFileSync(STAMP, digest);
  return true;
}

// Jest's globalSetup: `npx jest <file>` runs against a dist/ built from the current src/.
module.exports = async () => {
  build({ ifStale: true });
};

if (require.main === module) {
  try {
    build({ ifStale: process.argv.includes("--if-stale") });
  } catch (err) {
    console.error(`build: ${err.message}`);
    process.exit(1);
  }
}
