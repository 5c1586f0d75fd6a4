import { execFile } from "node:child_process";
import { chmodSync, copyFileSync, existsSync, linkSync, mkdirSync, mkdtempSync } from "node:fs";
import { readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { engineEnv } from "./pulumi";
import { ROOT } from "./pulumi-parts";
import { CLI_BIN, pulumiIn, YAML_BIN_DIR, type Run } from "./native-cli";

/*
 * Pulumi's CLI as a user who installed only Pulumi and Node.js has it: `pulumi` and its YAML host
 * in one folder, as a Pulumi release lays them out (the engine then takes the host as its own and
 * warns of nothing found on PATH), then node's folder and the system's. No plugin on PATH; each
 * session has an empty PULUMI_HOME and a backend of its own, and no plugin downloads unless the
 * test allows them.
 */

const made: string[] = [];
let bin: string | undefined;

/**
 * The folder holding `pulumi` and `pulumi-language-yaml`: hard links, since the engine looks for
 * its host beside the path it was started from (copies where a link cannot be made).
 */
export function userBin(): string {
  if (bin) return bin;
  const dir = mkdtempSync(join(tmpdir(), "hosting-user-bin-"));
  made.push(dir);
  for (const [from, name] of [
    [CLI_BIN, "pulumi"],
    [YAML_BIN_DIR, "pulumi-language-yaml"],
  ]) {
    try {
      linkSync(join(from, name), join(dir, name));
    } catch {
      copyFileSync(join(from, name), join(dir, name));
      chmodSync(join(dir, name), 0o755);
    }
  }
  bin = dir;
  return dir;
}

/** The user's PATH: Pulumi's folder, node's, the system's. */
export const userPath = () => [userBin(), dirname(process.execPath), "/usr/bin", "/bin"];

/** A folder in the temp folder, removed by `removeUserFolders`. */
export function userFolder(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), `hosting-${name}-`));
  made.push(dir);
  return dir;
}

/** An empty PULUMI_HOME and backend; `pulumi(args, cwd)` runs the CLI as the user does. */
export function userSession(extraEnv: Record<string, string> = {}) {
  const base = userFolder("user");
  mkdirSync(join(base, "state"));
  const home = join(base, "home");
  const where = { binDir: userBin(), home, backend: join(base, "state") };
  const env = engineEnv(where, {
    PATH: userPath().join(delimiter),
    HOSTING_LIST_CACHE_MS: "0",
    ...extraEnv,
  });
  return { home, env, pulumi: pulumiIn(env, join(userBin(), "pulumi")) };
}

export function removeUserFolders(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
  bin = undefined;
}

/** The folders from `dir` up to the root that hold a node_modules (the tests' guard: none). */
export function nodeModulesAbove(dir: string): string[] {
  const found: string[] = [];
  for (let d = dir; ; d = dirname(d)) {
    if (existsSync(join(d, "node_modules"))) found.push(join(d, "node_modules"));
    if (dirname(d) === d) return found;
  }
}

/** Where `name` is on the user's PATH (the tests' guard: the plugin is nowhere on it). */
export const onUserPath = (name: string): string[] =>
  userPath()
    .map((d) => join(d, name))
    .filter((f) => existsSync(f) && statSync(f).isFile());

/** Lines of the commands' output that warn, or that report a bug in the provider. */
export const warningsIn = (runs: Run[]): string[] =>
  runs
    .flatMap((r) => `${r.stdout}\n${r.stderr}`.split("\n"))
    .filter((l) => /warning|always a bug|from \$PATH/i.test(l));

/** The README's "Install the plugin", up to the next heading. */
export function readmeInstallSection(): string {
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");
  return readme.split(/^### Install the plugin$/m)[1]?.split(/^##/m)[0] ?? "";
}

/** The commands of the README's "Install the plugin" (its sh blocks, comments dropped). */
export function readmeInstall(): string[] {
  return [...readmeInstallSection().matchAll(/```sh\n([\s\S]*?)```/g)]
    .flatMap(([, block]) => block.split("\n"))
    .map((l) => l.replace(/\s+#.*$/, "").trim())
    .filter(Boolean);
}

/** Runs shell lines with bash (stopping at the first that fails) in `cwd`, as a user would. */
export const sh = (lines: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<Run> =>
  new Promise((resolve, reject) => {
    execFile("bash", ["-ec", lines.join("\n")], { cwd, env }, (err, stdout, stderr) => {
      if (err) reject(new Error(`${lines.join("; ")} failed:\n${stdout}\n${stderr}`));
      else resolve({ code: 0, stdout, stderr });
    });
  });
