import { execFile } from "node:child_process";
import * as path from "node:path";

/*
 * `npm run docs` as CI would run it, without writing the site: typedoc.json makes every
 * undocumented export, broken link or unexported referenced type a warning and every warning an
 * error, so hovering any public symbol shows what it is. Type errors are the build's to report
 * (pretest's tsc fails on them, with the same tsconfig.build.json), so TypeDoc skips that check.
 */

const ROOT = path.resolve(__dirname, "..", "..");

test("TypeDoc: every exported symbol is documented, every link resolves (zero warnings)", async () => {
  const typedoc = path.join(ROOT, "node_modules", "typedoc", "bin", "typedoc");
  const run = await new Promise<{ code: number | string | null; output: string }>((resolve) => {
    execFile(
      process.execPath,
      [typedoc, "--emit", "none", "--skipErrorChecking"],
      { cwd: ROOT, env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0" } },
      (err, stdout, stderr) =>
        resolve({ code: err ? (err.code ?? null) : 0, output: `${stdout}${stderr}` }),
    );
  });
  // A crash prints no warning lines: the exit code is held too (with the output, to show why).
  const warnings = run.output.split("\n").filter((l) => /\[(warning|error)\]/.test(l));
  const failed = run.code !== 0 ? { output: run.output } : {};
  expect({ code: run.code, warnings, ...failed }).toEqual({ code: 0, warnings: [] });
}, 120_000);
