import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT } from "./pulumi-parts";
import { engine, engineEnv, locateYaml } from "./pulumi";

/*
 * The real Pulumi CLI (scripts/pulumi-cli.js finds or builds it) against a local file backend,
 * with the package's plugin folder on PATH: the engine finds `pulumi-resource-hosting` there.
 */

const found = engine();
if ("missing" in found && process.env.REQUIRE_PULUMI_ENGINE === "1") {
  // CI sets this: there, no engine is a failure, never a skip.
  throw new Error(`the Pulumi CLI is required (REQUIRE_PULUMI_ENGINE=1): ${found.missing}`);
}
export const CLI_BIN = "missing" in found ? "" : found.binDir;
export const cliMissing = "missing" in found ? `skipped: ${found.missing}` : undefined;

// The YAML language host, for YAML programs (scripts/pulumi-cli.js builds it beside the CLI's).
const yaml = "missing" in found ? found : locateYaml(found.binDir);
if ("missing" in yaml && process.env.REQUIRE_PULUMI_ENGINE === "1") {
  throw new Error(`pulumi-language-yaml is required (REQUIRE_PULUMI_ENGINE=1): ${yaml.missing}`);
}
export const yamlMissing = "missing" in yaml ? `skipped: ${yaml.missing}` : undefined;
export const YAML_BIN_DIR = "missing" in yaml ? "" : yaml.binDir;
const YAML_BIN = YAML_BIN_DIR ? [YAML_BIN_DIR] : [];

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** A Pulumi project folder whose node_modules holds @pulumi/pulumi and this package. */
export function projectDir(name: string, files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), `hosting-${name}-`));
  mkdirSync(join(dir, "node_modules"));
  symlinkSync(join(ROOT, "node_modules", "@pulumi"), join(dir, "node_modules", "@pulumi"));
  symlinkSync(ROOT, join(dir, "node_modules", "pulumi-hosting"));
  writeFileSync(join(dir, "Pulumi.yaml"), `name: ${name}\nruntime: nodejs\n`);
  writeFileSync(join(dir, "package.json"), `{ "name": "${name}", "private": true }\n`);
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(join(dir, file, ".."), { recursive: true });
    writeFileSync(join(dir, file), text);
  }
  return dir;
}

/** One backend and PULUMI_HOME for a test file; `pulumi(args, cwd)` runs a command in a project. */
export function cliSession(extraEnv: Record<string, string> = {}) {
  const base = mkdtempSync(join(tmpdir(), "hosting-cli-"));
  mkdirSync(join(base, "state"));
  // The engine suite's environment, with the plugin folder on PATH: the engine finds
  // `pulumi-resource-hosting` there.
  const where = {
    binDir: CLI_BIN,
    path: [join(ROOT, "plugin"), ...YAML_BIN],
    home: join(base, "home"),
    backend: join(base, "state"),
  };
  const env = engineEnv(where, { HOSTING_LIST_CACHE_MS: "0", ...extraEnv });
  return { base, env, pulumi: pulumiIn(env) };
}

/**
 * `pulumi(args, cwd)`: runs `pulumi <args>` (the CLI at `cli`) in `cwd` with `env`; rejects with
 * its output unless it exits 0 (or `allowFail`).
 */
export function pulumiIn(env: NodeJS.ProcessEnv, cli = join(CLI_BIN, "pulumi")) {
  return (args: string[], cwd: string, allowFail = false): Promise<Run> =>
    new Promise((resolve, reject) => {
      execFile(
        cli,
        [...args, "--non-interactive"],
        { cwd, env, maxBuffer: 64 * 1024 * 1024 },
        (err, stdout, stderr) => {
          const code = err ? (typeof err.code === "number" ? err.code : 1) : 0;
          const run = { code, stdout, stderr };
          if (code !== 0 && !allowFail) {
            reject(new Error(`pulumi ${args.join(" ")} exited ${code}:\n${stdout}\n${stderr}`));
          } else resolve(run);
        },
      );
    });
}
