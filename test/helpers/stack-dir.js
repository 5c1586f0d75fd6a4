const {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readlinkSync,
  symlinkSync,
  unlinkSync,
} = require("node:fs");
const { join } = require("node:path");
const { ROOT } = require("./pulumi-parts");
const { workDir } = require("./run-folders");

function linkPackage(dir) {
  mkdirSync(join(dir, "node_modules"), { recursive: true });
  const link = join(dir, "node_modules", "pulumi-hosting");
  // A link copied from another checkout (a mutation-testing sandbox) would load that build.
  try {
    if (readlinkSync(link) !== ROOT) unlinkSync(link);
  } catch (err) {
    if (err.code !== "ENOENT") throw err;
  }
  try {
    symlinkSync(ROOT, link, "dir");
  } catch (err) {
    if (err.code !== "EEXIST") throw err;
  }
  return dir;
}

/**
 * A folder standing where a user's project would: node_modules/pulumi-hosting links to this repo
 * (built into dist/), so Pulumi's provider host resolves `require("pulumi-hosting")` from its
 * working directory exactly as in a real project.
 */
function stackDir() {
  return linkPackage(join(ROOT, "test", ".work", "stack"));
}

/** A fresh copy of a Pulumi program in such a folder (by default in the run's, under test/.work). */
function programDir(from, parent = workDir()) {
  mkdirSync(parent, { recursive: true });
  const dir = mkdtempSync(join(parent, "program-"));
  cpSync(from, dir, { recursive: true });
  return linkPackage(dir);
}

module.exports = { stackDir, programDir };
