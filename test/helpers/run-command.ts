import { execFile } from "node:child_process";

/** What a command did: its exit code and what it wrote. */
export interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `cmd` in `cwd` and answers with its outcome, a failure included (never rejects). */
export function runCommand(cmd: string, args: string[], cwd: string): Promise<Outcome> {
  return new Promise((done) => {
    execFile(cmd, args, { cwd, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === "number" ? err.code : 1) : 0;
      done({ code, stdout, stderr });
    });
  });
}
