import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
} from "node:fs";
import { rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT } from "../helpers/pulumi-parts";

/*
 * scripts/build.js, which jest's globalSetup calls: whatever starts jest, tests that load dist/
 * run what src/ says. Run on a one-module copy of the repository (its node_modules linked), each
 * call in its own process as jest makes it.
 */

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "hosting-build-"));
  mkdirSync(join(dir, "scripts"));
  mkdirSync(join(dir, "src"));
  for (const f of ["build.js", "dir-lock.js"]) {
    copyFileSync(join(ROOT, "scripts", f), join(dir, "scripts", f));
  }
  for (const f of ["tsconfig.json", "tsconfig.build.json"])
    copyFileSync(join(ROOT, f), join(dir, f));
  symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"), "dir");
});
afterAll(() => {
  // The copy's build stamp sits in the linked node_modules: removed with the copy.
  const key = createHash("sha256").update(dir).digest("hex").slice(0, 12);
  rmSync(join(ROOT, "node_modules", ".cache", "pulumi-hosting", `build-stamp-${key}`), {
    force: true,
  });
  rmSync(dir, { recursive: true, force: true });
});

/** jest's call of the globalSetup, in a process of its own; its exit code and stderr. */
function globalSetup(): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, ["-e", 'require("./scripts/build.js")()'], { cwd: dir });
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, stderr })));
}

const source = (n: number) =>
  writeFileSync(join(dir, "src", "index.ts"), `export const n = ${n};\n`);
const built = () => readFileSync(join(dir, "dist", "index.js"), "utf8").match(/n = (\d+)/)?.[1];

test("builds a missing dist/, rebuilds a stale one, leaves a fresh one alone, and parallel runs all get the new one", async () => {
  source(1);
  expect(await globalSetup()).toEqual({ code: 0, stderr: "" });
  expect(built()).toBe("1");

  // src/ changed after the last build: the next jest run must not load the old dist/.
  source(2);
  expect(await globalSetup()).toEqual({ code: 0, stderr: "" });
  expect(built()).toBe("2");

  // Unchanged: dist/ is not rebuilt (the same file, untouched).
  const before = statSync(join(dir, "dist", "index.js"));
  expect(await globalSetup()).toEqual({ code: 0, stderr: "" });
  const after = statSync(join(dir, "dist", "index.js"));
  expect([after.ino, after.mtimeMs]).toEqual([before.ino, before.mtimeMs]);

  // Three jest runs start at once after a change (mutation testing): each sees the new build,
  // none fails on another's half-moved dist/, and nothing is left beside it.
  source(3);
  const runs = await Promise.all([globalSetup(), globalSetup(), globalSetup()]);
  expect(runs).toEqual(Array(3).fill({ code: 0, stderr: "" }));
  expect(built()).toBe("3");
  expect(readdirSync(dir).sort()).toEqual([
    "dist",
    "node_modules",
    "scripts",
    "src",
    "tsconfig.build.json",
    "tsconfig.json",
  ]);
  expect(existsSync(join(dir, "dist", "index.d.ts"))).toBe(true);
}, 180_000);
