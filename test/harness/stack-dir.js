const { mkdirSync, symlinkSync } = require("node:fs");
const { join } = require("node:path");
const { ROOT } = require("./pulumi-parts");

/**
 * A folder standing where a user's project would: node_modules/pulumi-hosting links to this repo
 * (built into dist/), so Pulumi's provider host resolves `require("pulumi-hosting")` from its
 * working directory exactly as in a real project.
 */
function stackDir() {
  const dir = join(ROOT, "test", ".work", "stack");
  mkdirSync(join(dir, "node_modules"), { recursive: true });
  try {
    symlinkSync(ROOT, join(dir, "node_modules", "pulumi-hosting"), "dir");
  } catch (err) {
    if (err.code !== "EEXIST") throw err;
  }
  return dir;
}

module.exports = { stackDir };
