/*
 * `npm pack` of this repository, made once per content and shared by the test files that need
 * the tarball (test/package, test/types): keyed by a digest of every file npm packs, so a changed
 * dist/, README or package.json gets a fresh pack and a stale tarball never passes for current.
 * Safe for several jest workers at once: one packs under a lock, the others wait for its result.
 */
const { spawnSync } = require("node:child_process");
const { createHash } = require("node:crypto");
const fs = require("node:fs");
const { join } = require("node:path");
const { ROOT } = require("./pulumi-parts");
const { releaseLock, tryLock } = require("../../scripts/dir-lock");

const PACKS = join(ROOT, "test", ".work", "packs");
const WAIT_MS = 180_000;

/** Every file `npm pack` takes: package.json's `files` (plain paths only) and what npm always adds. */
function packedInputs() {
  const manifest = JSON.parse(fs.readFileSync(join(ROOT, "package.json"), "utf8"));
  const out = [];
  const add = (rel) => {
    if (/[*?[\]{}!]/.test(rel)) throw new Error(`packed-tarball: glob "${rel}" in files: hash it`);
    const abs = join(ROOT, rel);
    if (!fs.existsSync(abs)) return;
    if (!fs.statSync(abs).isDirectory()) return out.push(rel);
    for (const f of fs.readdirSync(abs, { recursive: true, encoding: "utf8" })) {
      if (fs.statSync(join(abs, f)).isFile()) out.push(join(rel, f));
    }
  };
  for (const rel of new Set(["package.json", "README.md", "LICENSE", ...(manifest.files ?? [])])) {
    add(rel);
  }
  return [...new Set(out)].sort();
}

function digest() {
  const hash = createHash("sha256");
  for (const f of packedInputs()) hash.update(`\0${f}\0`).update(fs.readFileSync(join(ROOT, f)));
  return hash.digest("hex").slice(0, 24);
}

const tgzIn = (dir) => fs.readdirSync(dir).find((f) => f.endsWith(".tgz"));

/** How long ago `path` was last changed (0 when it is gone). */
function age(path) {
  try {
    return Date.now() - fs.statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

/** Packs into a private folder, then moves it in place: a reader never sees half a pack. */
function pack(dir) {
  const tmp = `${dir}.tmp-${process.pid}`;
  fs.rmSync(tmp, { recursive: true, force: true });
  fs.mkdirSync(tmp, { recursive: true });
  const r = spawnSync("npm", ["pack", "--ignore-scripts", "--silent", "--pack-destination", tmp], {
    cwd: ROOT,
    encoding: "utf8",
  });
  if (r.status !== 0 || !tgzIn(tmp)) {
    fs.rmSync(tmp, { recursive: true, force: true });
    throw new Error(`npm pack failed (${r.status}):\n${r.stderr}`);
  }
  try {
    fs.renameSync(tmp, dir);
  } catch (err) {
    fs.rmSync(tmp, { recursive: true, force: true });
    if (!fs.existsSync(dir)) throw err;
  }
  pruneOldPacks(dir);
}

/** Packs of earlier contents, a day untouched: nothing of this run can still want them. */
function pruneOldPacks(keep) {
  for (const name of fs.readdirSync(PACKS)) {
    const old = join(PACKS, name);
    if (old !== keep && age(old) > 86_400_000) fs.rmSync(old, { recursive: true, force: true });
  }
}

/**
 * The path of a tarball `npm pack` made from the repository as it is now (dist/ as built), packed
 * by this call or an earlier one of this content.
 */
async function packedTarball() {
  const dir = join(PACKS, digest());
  const lock = `${dir}.lock`;
  const deadline = Date.now() + WAIT_MS;
  fs.mkdirSync(PACKS, { recursive: true });
  while (!fs.existsSync(dir)) {
    // Another worker packs: wait for its result (taken over when it died holding the lock).
    if (!tryLock(lock)) {
      if (Date.now() > deadline) throw new Error(`packed-tarball: ${lock} held too long`);
      await new Promise((resolve) => setTimeout(resolve, 100));
      continue;
    }
    try {
      if (!fs.existsSync(dir)) pack(dir);
    } finally {
      releaseLock(lock);
    }
  }
  // In use: pruneOldPacks goes by this time.
  const now = new Date();
  fs.utimesSync(dir, now, now);
  return join(dir, tgzIn(dir));
}

module.exports = { packedTarball, PACKS };
