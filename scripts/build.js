// Builds dist/ from src/ with tsc into a new folder that replaces dist/ (so a deleted module
// leaves no file).
// Then writes plugin/schema.json (scripts/package-schema.js).
// With --if-stale (npm test, demo, bench, pack, emulator) it builds only when src/,
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
  renameSync,
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
  if (!existsSync(join(ROOT, "plugin", "schema.json"))) return false;
  return files.every((f) => existsSync(join(DIST, f.replace(/\.ts$/, ".js"))));
}

/**
 * Builds into a folder beside dist/ and then moves it in place, so a reader (a test in another
 * process) never sees half a dist/, and of two builds at once the second finds one done.
 * `when`: "always", "if-stale" (src/ changed), or "if-missing" (no dist/ at all).
 */
function build(when = "always") {
  const files = sources();
  const digest = inputsDigest(files);
  if (when === "if-stale" && isFresh(files, digest)) return false;
  if (when === "if-missing" && existsSync(DIST)) return false;
  const out = `${DIST}.building-${process.pid}`;
  rmSync(out, { recursive: true, force: true });
  const tsc = require.resolve("typescript/bin/tsc");
  const r = spawnSync(
    process.execPath,
    [tsc, "-p", join(ROOT, "tsconfig.build.json"), "--outDir", out],
    { cwd: ROOT, stdio: "inherit" },
  );
  if (r.status !== 0) {
    rmSync(out, { recursive: true, force: true });
    throw new Error(`tsc failed (exit code ${r.status ?? r.signal})`);
  }
  rmSync(STAMP, { force: true });
  if (when === "if-missing" && existsSync(DIST)) {
    rmSync(out, { recursive: true, force: true });
    return false;
  }
  const old = `${DIST}.old-${process.pid}`;
  if (existsSync(DIST)) renameSync(DIST, old);
  renameSync(out, DIST);
  rmSync(old, { recursive: true, force: true });
  // The native plugin's package schema, from the declarations just built.
  const schema = require("./package-schema");
  writeFileSync(schema.OUT, schema.text());
  mkdirSync(dirname(STAMP), { recursive: true });
  writeFileSync(STAMP, digest);
  return true;
}

// Jest's globalSetup: `npx jest <file>` right after `npm ci` finds a dist/. It does not rebuild a
// stale one: test runs in parallel (mutation testing) must not replace dist/ under each other.
module.exports = async () => {
  build("if-missing");
};

if (require.main === module) {
  try {
    build(process.argv.includes("--if-stale") ? "if-stale" : "always");
  } catch (err) {
    console.error(`build: ${err.message}`);
    process.exit(1);
  }
}
