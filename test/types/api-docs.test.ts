import { execFile } from "node:child_process";
import * as path from "node:path";
import { promisify } from "node:util";

/*
 * `npm run docs` as CI would run it, without writing the site: typedoc.json makes every
 * undocumented export, broken link or unexported referenced type a warning and every warning an
 * error, so hovering any public symbol shows what it is. Type errors are the build's to report
 * (pretest's tsc fails on them, with the same tsconfig.build.json), so TypeDoc skips that check.
 */

const ROOT = path.resolve(__dirname, "..", "..");

test("TypeDoc: every exported symbol is documented, every link resolves (zero warnings)", async () => {
  const typedoc = path.join(ROOT, "node_modules", "typedoc", "bin", "typedoc");
  const run = await promisify(execFile)(
    process.execPath,
    [typedoc, "--emit", "none", "--skipErrorChecking"],
    {
      cwd: ROOT,
      env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0" },
    },
  ).catch((err: { stdout: string; stderr: string }) => err);
  const output = `${run.stdout}${run.stderr}`;
  expect(output.split("\n").filter((l) => /\[(warning|error)\]/.test(l))).toEqual([]);
}, 120_000);
