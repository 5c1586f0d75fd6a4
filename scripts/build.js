// Builds dist/ from src/ with tsc into a new folder that replaces dist/ (so a deleted module
// leaves no file).
// Then writes plugin/schema.json (scripts/plugin-schema.js) and bundles the native plugin into
// plugin/pulumi-resource-hosting (scripts/plugin-bundle.js).
// With --if-stale (npm test, demo, bench, pack, emulator, and jest's globalSetup, however jest is
// started) it builds only when src/, the tsconfig files or the TypeScript version changed since
// the last build: one build per command, none when dist/ is already what src/ gives.
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
const { releaseLock, tryLock } = require("./dir-lock");

const ROOT = join(__dirname, "..");
const DIST = join(ROOT, "dist");
// Under node_modules: `npm ci` starts it afresh, and it is never packed or committed.
// One per checkout: a copy of the repository that links this node_modules (Stryker's sandbox)
// keeps its own.
const STAMP = join(
  ROOT,
  "node_modules",
  ".cache",
  "pulumi-hosting",
  `build-stamp-${createHash("sha256").update(ROOT).digest("hex").slice(0, 12)}`,
);
const LOCK = `${DIST}.lock`;
const LOCK_WAIT_MS = 10 * 60_000;
const CONFIGS = ["tsconfig.json", "tsconfig.build.json"];
// What the schema and the plugin's bundle are also made of (absent from the build test's copy).
const BUNDLE_INPUTS = [
  "package-lock.json",
  "scripts/plugin-schema.js",
  "scripts/plugin-bundle.js",
  "scripts/plugin-left-out.js",
];

function sources() {
  return readdirSync(join(ROOT, "src"), { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".ts"))
    .sort();
}

/** A digest of everything the output depends on: sources, configs, compiler version. */
function inputsDigest(files) {
  const hash = createHash("sha256");
  hash.update(require("typescript/package.json").version);
  const bundleInputs = BUNDLE_INPUTS.filter((f) => existsSync(join(ROOT, f)));
  for (const f of [...CONFIGS, ...bundleInputs, ...files.map((s) => join("src", s))]) {
    hash.update(`\0${f}\0`).update(readFileSync(join(ROOT, f)));
  }
  return hash.digest("hex");
}

/**
 * Whether the tree declares the native plugin's package schema (the build test's one-module
 * copy does not): then the build writes plugin/schema.json and the plugin's bundle, and dist/ is
 * fresh only with both.
 */
const hasSchema = () => existsSync(join(ROOT, "src", "native", "package-schema.ts"));

function isFresh(files, digest) {
  if (!existsSync(STAMP) || readFileSync(STAMP, "utf8") !== digest) return false;
  const plugin = ["schema.json", "pulumi-resource-hosting"].map((f) => join(ROOT, "plugin", f));
  if (hasSchema() && !plugin.every((f) => existsSync(f))) return false;
  return files.every((f) => existsSync(join(DIST, f.replace(/\.ts$/, ".js"))));
}

const sleep = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/**
 * Runs `fn` holding dist.lock/, so of several builds started at once (parallel jest runs,
 * mutation testing) one builds and the others then find dist/ fresh.
 */
function withLock(fn) {
  const giveUpAt = Date.now() + LOCK_WAIT_MS;
  while (!tryLock(LOCK)) {
    if (Date.now() > giveUpAt) {
      throw new Error(`${LOCK} held by another build for over 10 minutes; remove it if stale`);
    }
    sleep(200);
  }
  try {
    return fn();
  } finally {
    releaseLock(LOCK);
  }
}

/**
 * Builds into a folder beside dist/ and then moves it in place, so a reader (a test in another
 * process) never sees half a dist/.
 * `when`: "always" or "if-stale" (src/ changed).
 */
function build(when = "always") {
  const stale = () => {
    const files = sources();
    const digest = inputsDigest(files);
    return when === "if-stale" && isFresh(files, digest) ? undefined : digest;
  };
  if (stale() === undefined) return false;
  // Looked at again under the lock: another build may have finished while this one waited.
  return withLock(() => {
    const digest = stale();
    return digest === undefined ? false : buildNow(digest);
  });
}

function buildNow(digest) {
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
  const old = `${DIST}.old-${process.pid}`;
  if (existsSync(DIST)) renameSync(DIST, old);
  renameSync(out, DIST);
  rmSync(old, { recursive: true, force: true });
  // The native plugin's package schema, from the declarations just built, then the plugin.
  if (hasSchema()) {
    const schema = require("./plugin-schema");
    writeFileSync(schema.OUT, schema.text());
    require("./plugin-bundle").bundle();
  }
  mkdirSync(dirname(STAMP), { recursive: true });
  writeFileSync(STAMP, digest);
  return true;
}

// For jest's globalSetup (test/helpers/global-setup.js): dist/ as src/ says, if stale.
module.exports = async () => {
  build("if-stale");
};
// For scripts that need dist/ and the plugin first (plugin-archives.js).
module.exports.build = build;

if (require.main === module) {
  try {
    build(process.argv.includes("--if-stale") ? "if-stale" : "always");
  } catch (err) {
    console.error(`build: ${err.message}`);
    process.exit(1);
  }
}
