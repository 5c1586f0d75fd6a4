import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { cliSession } from "./native-cli";
import { wheelVenv } from "./sdk-cache";

/** What test/native/python/run.py (and go/main.go) print: one JSON line of what they saw. */
export interface Seen {
  outputs: Record<string, { value: unknown; secret: boolean }>;
  up: Record<string, number>;
  preview: Record<string, number>;
  tokenOutsideSecrets: string[];
  destroy: Record<string, number>;
}

/**
 * Runs a Pulumi Python program file in the venv of the built wheel, through the engine by the
 * Automation API (python/run.py), in `work` (its `./app` is taken from there): up, a preview,
 * the state, destroy.
 */
export async function runPythonProgram(
  program: string,
  o: { url: string; token: string; work: string; config?: Record<string, string> },
): Promise<Seen> {
  const python = join(wheelVenv(), "bin", "python");
  const config = Object.entries(o.config ?? {}).map(([k, v]) => `${k}=${v}`);
  const args = [
    join(__dirname, "..", "native", "python", "run.py"),
    program,
    o.url,
    o.token,
    o.work,
    ...config,
  ];
  const { stdout } = await promisify(execFile)(python, args, {
    env: cliSession().env,
    maxBuffer: 16 * 1024 * 1024,
  });
  return JSON.parse(stdout.trim().split("\n").pop() ?? "{}") as Seen;
}
