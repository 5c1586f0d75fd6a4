import { mkdirSync, symlinkSync } from "node:fs";
import { join, resolve } from "node:path";

export const ROOT = resolve(__dirname, "..", "..");
export const PULUMI_DIR = join(ROOT, "node_modules", "@pulumi", "pulumi");

/**
 * A folder that stands where a user's stack would: its node_modules/pulumi-hosting links to this
 * repo (built into dist/), so Pulumi's provider host resolves `require("pulumi-hosting")` from
 * its working directory exactly as it does in a real project.
 */
export function stackDir(): string {
  const dir = join(ROOT, "test", ".work", "stack");
  mkdirSync(join(dir, "node_modules"), { recursive: true });
  try {
    symlinkSync(ROOT, join(dir, "node_modules", "pulumi-hosting"), "dir");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
  }
  return dir;
}
