/*
 * The caches this repository makes on a machine (Pulumi's CLI and language hosts, generated SDKs,
 * a Python venv, Go builds of test tools): where they live, and how an entry is made and trusted.
 *
 * An entry is a folder made in place, under a lock beside it, and stamped last with its own path.
 * It is trusted only when the stamp names the folder where it is now and its own check passes:
 * a half-made entry (a builder killed, a disk full) has no stamp, and a moved one (a venv keeps
 * its old path in every script's first line) has another path in its stamp. Either is made again,
 * never reused. Making in place, not in a temp folder renamed at the end, is what lets a venv
 * work: it is not relocatable.
 */
const { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } = require("node:fs");
const { homedir } = require("node:os");
const { join, resolve } = require("node:path");
const { releaseLock, tryLock } = require("./dir-lock");

const STAMP = "made.json";
const LOCK_WAIT_MS = 40 * 60_000;

/**
 * The package's cache folder: HOSTING_CACHE_DIR, else pulumi-hosting in XDG's cache, else in
 * ~/.cache. The same rule as the provider's own (src/connection/environment.ts).
 */
function cacheBase() {
  return resolve(
    process.env.HOSTING_CACHE_DIR ||
      join(process.env.XDG_CACHE_HOME || join(homedir(), ".cache"), "pulumi-hosting"),
  );
}

/**
 * Where the tools the tests need are made. The test environment moves HOSTING_CACHE_DIR into
 * test/.work for the provider's own caches, and first records the developer's folder here, so a
 * CLI built by `npm test`'s pretest is found by the tests.
 */
function toolCache() {
  return resolve(process.env.HOSTING_TOOL_CACHE || cacheBase());
}

/** Whether `dir` is a finished entry made where it is, and `check(dir)` (if any) passes. */
function entryReady(dir, check) {
  const at = resolve(dir);
  let stamp;
  try {
    stamp = JSON.parse(readFileSync(join(at, STAMP), "utf8"));
  } catch {
    return false;
  }
  if (stamp === null || typeof stamp !== "object" || stamp.path !== at) return false;
  try {
    return check ? check(at) === true : true;
  } catch {
    return false;
  }
}

const sleep = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/**
 * The entry at `dir`, made by `make(dir)` (synchronous) unless a checked one is there. One maker
 * per entry across processes; a waiter takes what the maker finished. Returns `dir`.
 * @param {string} dir
 * @param {(dir: string) => void} make
 * @param {{ check?: (dir: string) => boolean, say?: (msg: string) => void }} [o]
 */
function ensureEntry(dir, make, o = {}) {
  const at = resolve(dir);
  if (entryReady(at, o.check)) return at;
  const lock = `${at}.lock`;
  mkdirSync(join(at, ".."), { recursive: true });
  const since = Date.now();
  for (let tries = 0; !tryLock(lock); tries++) {
    if (tries === 0) o.say?.(`another process is making ${at}; waiting for it`);
    if (Date.now() - since > LOCK_WAIT_MS) throw new Error(`gave up waiting for ${lock}`);
    sleep(1000);
  }
  try {
    if (entryReady(at, o.check)) return at;
    if (existsSync(at)) o.say?.(`${at} is half-made, moved or fails its check: making it again`);
    rmSync(at, { recursive: true, force: true });
    mkdirSync(at, { recursive: true });
    make(at);
    writeFileSync(
      join(at, STAMP),
      JSON.stringify({ path: at, madeAt: new Date().toISOString() }) + "\n",
    );
    if (!entryReady(at, o.check)) throw new Error(`${at} was made but fails its own check`);
    return at;
  } finally {
    releaseLock(lock);
  }
}

module.exports = { cacheBase, toolCache, entryReady, ensureEntry };
