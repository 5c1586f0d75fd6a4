import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { killGroup } from "./pulumi";

/*
 * Commands typed into a terminal, one after another, as a README tells a user to. Each runs in a
 * `/bin/sh` of its own, starting in the folder and with the exported variables the one before
 * left: `cd` and `export` carry over as in a terminal (unexported shell variables do not).
 */

/** One command's exit and everything it printed. */
export interface ShellRun {
  command: string;
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

// Variables the shell sets for itself: not the user's to carry over.
const SHELL_OWN = new Set(["PWD", "OLDPWD", "SHLVL", "_"]);

/** Shells still running, killed with what they started when this process leaves. */
const running = new Set<ChildProcess>();
process.on("exit", () => running.forEach((child) => killGroup(child)));

export class ShellSession {
  private readonly stateDir = mkdtempSync(join(tmpdir(), "shell-"));
  private runs = 0;

  constructor(
    /** The folder the next command starts in. */
    public cwd: string,
    /** The environment the next command starts with. */
    public env: NodeJS.ProcessEnv,
  ) {
    if (this.stateDir.includes("'")) throw new Error(`a quote in ${this.stateDir}`);
  }

  /** Runs `command` to its end (killed, with what it started, past `timeoutMs`). */
  run(command: string, timeoutMs = 300_000): Promise<ShellRun> {
    const state = join(this.stateDir, `after-${++this.runs}`);
    // After the command, as its last words: the folder it left the shell in and its exports.
    const script = `${command}\n__rc=$?\npwd > '${state}.cwd'\nenv -0 > '${state}.env'\nexit $__rc\n`;
    const child = this.spawn(script);
    let stdout = "";
    let stderr = "";
    child.stdout!.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr!.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    const timer = setTimeout(() => killGroup(child), timeoutMs);
    return new Promise((resolve, reject) => {
      child.once("error", (err) => {
        clearTimeout(timer);
        running.delete(child);
        reject(err);
      });
      child.once("close", (code, signal) => {
        clearTimeout(timer);
        running.delete(child);
        this.carryOver(state);
        resolve({ command, code, signal, stdout, stderr });
      });
    });
  }

  /**
   * Starts `command` and leaves it running, as in a second terminal (a server): stdout and stderr
   * piped; `stop` ends it with everything it started.
   */
  start(command: string): { child: ChildProcess; stop: () => void } {
    const child = this.spawn(command);
    child.once("exit", () => running.delete(child));
    return { child, stop: () => killGroup(child, "SIGTERM") };
  }

  private spawn(script: string): ChildProcess {
    const child = spawn("/bin/sh", ["-c", script], {
      cwd: this.cwd,
      env: this.env,
      stdio: ["ignore", "pipe", "pipe"],
      // A process group of its own, so a deadline ends what the command started too.
      detached: true,
    });
    running.add(child);
    return child;
  }

  /** The folder and exports a command left, for the next one (none when it was killed). */
  private carryOver(state: string): void {
    if (!existsSync(`${state}.cwd`) || !existsSync(`${state}.env`)) return;
    this.cwd = readFileSync(`${state}.cwd`, "utf8").trimEnd();
    const env: NodeJS.ProcessEnv = {};
    for (const pair of readFileSync(`${state}.env`, "utf8").split("\0")) {
      const eq = pair.indexOf("=");
      if (eq > 0 && !SHELL_OWN.has(pair.slice(0, eq))) env[pair.slice(0, eq)] = pair.slice(eq + 1);
    }
    this.env = env;
  }
}
