import { execFile } from "node:child_process";
import { mkdtempSync, mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { startEmulator, type RunningEmulator } from "../../src/emulator";
import { cliMissing, cliSession } from "./cli";
import { installedPythonSdk, pythonVenv } from "./sdk-cache";

/*
 * A Python program of the SDK generated from the plugin's schema, through the real engine
 * (the Automation API's inline program: Python needs no language host then) against the
 * emulator: an App from a local folder, a domain, web access, a data source; up, a preview with
 * no change, destroy.
 */

const run = promisify(execFile);

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await startEmulator({ seed: "native-python", setupDelayMs: 0 });
});
afterAll(async () => {
  await emu?.stop();
});

(cliMissing ? describe.skip : describe)(`a Python program ${cliMissing ?? ""}`, () => {
  test("up, a preview with no change, destroy; env a secret, the token only sealed", async () => {
    const venv = await pythonVenv();
    const site = await installedPythonSdk(venv);
    const work = mkdtempSync(join(tmpdir(), "hosting-py-"));
    mkdirSync(join(work, "app"));
    writeFileSync(join(work, "app", "index.js"), "require('http').createServer().listen(8080);\n");
    const token = emu.issueToken();
    const cli = cliSession();
    const { stdout } = await run(
      join(venv, "bin", "python"),
      [join(__dirname, "python", "program.py"), site, join(work, "app"), emu.url, token, work],
      { env: cli.env, maxBuffer: 16 * 1024 * 1024 },
    );
    const seen = JSON.parse(stdout.trim().split("\n").pop() ?? "{}") as {
      outputs: Record<string, { value: unknown; secret: boolean }>;
      up: Record<string, number>;
      preview: Record<string, number>;
      tokenOutsideSecrets: string[];
      destroy: Record<string, number>;
    };
    expect(seen.up).toEqual({ create: 4 });
    expect(seen.outputs.env).toEqual({ value: { K: "v" }, secret: true });
    expect(seen.outputs.domain.value).toBe("www.py.pointed.test");
    expect(seen.outputs.postgres.value).toBeGreaterThan(0);
    expect(seen.preview).toEqual({ same: 4 });
    expect(seen.tokenOutsideSecrets).toEqual([]);
    expect(seen.destroy).toEqual({ delete: 4 });
    // One app was made (from the local folder), and destroy removed it.
    expect(emu.stats().requests["POST /apps"]).toBe(1);
    expect(emu.world.apps.some((a) => a.id === seen.outputs.appId.value)).toBe(false);
  }, 600_000);
});
