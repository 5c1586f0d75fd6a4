import { cpSync, mkdirSync, mkdtempSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "../harness/pulumi-parts";

/**
 * Copies a Pulumi program into a fresh folder under test/.work that sees this package as an
 * installed dependency (node_modules/pulumi-hosting → the repo), as a user's project would.
 */
export function programDir(from: string): string {
  mkdirSync(join(ROOT, "test", ".work"), { recursive: true });
  const dir = mkdtempSync(join(ROOT, "test", ".work", "program-"));
  cpSync(from, dir, { recursive: true });
  mkdirSync(join(dir, "node_modules"), { recursive: true });
  symlinkSync(ROOT, join(dir, "node_modules", "pulumi-hosting"), "dir");
  return dir;
}
