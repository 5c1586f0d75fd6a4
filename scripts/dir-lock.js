// A lock that is a folder (mkdir is atomic) holding its owner's pid, for work that several
// processes may start at once: scripts/build.js (dist/), test/helpers/packed-tarball.js and
// scripts/pulumi-cli.js (the CLI build).
const { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } = require("node:fs");
const { join } = require("node:path");

/** Whether process `pid` runs (one of another user counts as running). */
function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === "EPERM";
  }
}

/**
 * Takes `lock` when free, or when its owner died holding it (its pid gone, or no pid written
 * `graceMs` after it was made); false while another process holds it. Release: `releaseLock`.
 */
function tryLock(lock, graceMs = 30_000) {
  try {
    mkdirSync(lock);
  } catch (err) {
    if (err.code !== "EEXIST") throw err;
    let holder = NaN;
    try {
      holder = Number(readFileSync(join(lock, "pid"), "utf8"));
    } catch {
      // Just made, its pid not written yet.
    }
    const since = statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? 0;
    const orphan =
      Number.isInteger(holder) && holder > 0 ? !alive(holder) : Date.now() - since > graceMs;
    if (orphan) rmSync(lock, { recursive: true, force: true });
    return false;
  }
  writeFileSync(join(lock, "pid"), String(process.pid));
  return true;
}

const releaseLock = (lock) => rmSync(lock, { recursive: true, force: true });

module.exports = { alive, tryLock, releaseLock };
