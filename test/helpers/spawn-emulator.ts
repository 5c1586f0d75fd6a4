import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { createInterface } from "node:readline";

export const CLI = join(__dirname, "..", "..", "dist", "emulator", "cli.js");

/** Runs the built `hosting-emulator` bin and reads its URL and token from the first lines. */
export async function spawnEmulator(args: string[]): Promise<{
  child: ChildProcess;
  url: string;
  token: string;
}> {
  const child = spawn(process.execPath, [CLI, ...args], { stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
  const lines = createInterface({ input: child.stdout! });
  const found: Record<string, string> = {};
  await new Promise<void>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`emulator exited ${code}: ${stderr}`)));
    lines.on("line", (line) => {
      const m = /^(HOSTING_API_URL|HOSTING_TOKEN)=(.*)$/.exec(line);
      if (m) found[m[1]] = m[2];
      if (found.HOSTING_API_URL && found.HOSTING_TOKEN) resolve();
    });
  });
  child.removeAllListeners("exit");
  return { child, url: found.HOSTING_API_URL, token: found.HOSTING_TOKEN };
}

export function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once("exit", () => resolve());
  });
}
