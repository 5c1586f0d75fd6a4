import { execFile } from "node:child_process";
import { mkdtempSync, mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { startEmulator, type RunningEmulator } from "../../src/emulator";
import { cliMissing, cliSession } from "./cli";
import { goProgram, installedPythonSdk, pythonVenv } from "./sdk-cache";

/*
 * Programs of the SDKs generated from the plugin's schema, in Python (python/program.py) and Go
 * (go/main.go), through the real engine against the emulator. Each runs as the Automation API's
 * inline program (neither language needs a host then): an App from a local folder, a domain,
 * web access, a data source; up, a preview with no change, destroy.
 */

const run = promisify(execFile);

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await startEmulator({ seed: "native-sdks", setupDelayMs: 0 });
});
afterAll(async () => {
  await emu?.stop();
});

interface Seen {
  outputs: Record<string, { value: unknown; secret: boolean }>;
  up: Record<string, number>;
  preview: Record<string, number>;
  tokenOutsideSecrets: string[];
  destroy: Record<string, number>;
}

/** Runs a program (`command …before <app> <url> <token> <work>`) and checks what it saw. */
async function runsTheStack(command: string, before: string[], domain: string) {
  const work = mkdtempSync(join(tmpdir(), "hosting-sdk-"));
  mkdirSync(join(work, "app"));
  writeFileSync(join(work, "app", "index.js"), "require('http').createServer().listen(8080);\n");
  emu.resetStats();
  const args = [...before, join(work, "app"), emu.url, emu.issueToken(), work];
  const { stdout } = await run(command, args, {
    env: cliSession().env,
    maxBuffer: 16 * 1024 * 1024,
  });
  const seen = JSON.parse(stdout.trim().split("\n").pop() ?? "{}") as Seen;
  expect(seen.up).toEqual({ create: 4 });
  expect(seen.outputs.env).toEqual({ value: { K: "v" }, secret: true });
  expect(seen.outputs.domain.value).toBe(domain);
  expect(seen.outputs.postgres.value).toBeGreaterThan(0);
  expect(seen.preview).toEqual({ same: 4 });
  // The token is in the state only sealed (the default provider's config, a secret).
  expect(seen.tokenOutsideSecrets).toEqual([]);
  expect(seen.destroy).toEqual({ delete: 4 });
  // One app was made from the local folder, and destroy removed it.
  expect(emu.stats().requests["POST /apps"]).toBe(1);
  expect(emu.world.apps.some((a) => a.id === seen.outputs.appId.value)).toBe(false);
}

(cliMissing ? describe.skip : describe)(
  `SDK programs through the engine ${cliMissing ?? ""}`,
  () => {
    test("Python (pulumi_hosting)", async () => {
      const venv = pythonVenv();
      const site = installedPythonSdk(venv);
      const program = join(__dirname, "python", "program.py");
      await runsTheStack(join(venv, "bin", "python"), [program, site], "www.py.pointed.test");
    }, 900_000);

    test("Go (sdk/go/hosting)", async () => {
      await runsTheStack(goProgram(), [], "www.go.pointed.test");
      // On a machine that never ran it, this builds Pulumi's code generator and the program.
    }, 1_500_000);
  },
);
