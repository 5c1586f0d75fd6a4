import { spawn } from "node:child_process";
import * as path from "node:path";

const environment = path.join(__dirname, "worker-environment.js");

/** Runs a script as a jest worker would be (IPC channel, JEST_WORKER_ID) and collects its end. */
function runAsWorker(script: string): Promise<{ code: number | null; stdout: string }> {
  const child = spawn(process.execPath, ["-e", script], {
    env: { ...process.env, JEST_WORKER_ID: "1" },
    stdio: ["ignore", "pipe", "inherit", "ipc"],
  });
  let stdout = "";
  child.stdout?.on("data", (d: Buffer) => (stdout += d.toString()));
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, stdout })));
}

describe("jest worker environment", () => {
  it("keeps the exit code and still runs exit listeners registered after it", async () => {
    const { code, stdout } = await runAsWorker(`
      require(${JSON.stringify(environment)});
      process.on("exit", (c) => process.stdout.write("later listener saw " + c + "\\n"));
      process.exitCode = 3;
      process.disconnect();
    `);
    expect(code).toBe(3);
    expect(stdout).toBe("later listener saw 3\n");
  });
});
