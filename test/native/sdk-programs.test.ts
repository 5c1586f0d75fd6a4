import { execFile } from "node:child_process";
import { mkdtempSync, mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import type { RunningEmulator } from "../../src/emulator";
import { useEmulators } from "../helpers/emulator";
import { cliMissing, cliSession } from "../helpers/native-cli";
import { runPythonProgram, type Seen } from "../helpers/python-run";
import { goProgram } from "../helpers/sdk-cache";

/*
 * Programs of the SDKs as a user gets them, through the real engine against the emulator: Python
 * (python/program.py) with the built wheel installed by pip into a fresh venv, and Go (go/main.go)
 * with the committed module (sdk/go/hosting) by `replace`. Each runs as the Automation API's
 * inline program (neither language needs a host then): an App from a local folder, a domain,
 * web access, a data source; up, a preview with no change, destroy.
 */

let emu: RunningEmulator;
const emulators = useEmulators();
beforeAll(async () => {
  emu = await emulators.start({ seed: "native-sdks", setupDelayMs: 0 });
});

/** A work folder with an app in ./app. */
function workWithApp(): string {
  const work = mkdtempSync(join(tmpdir(), "hosting-sdk-"));
  mkdirSync(join(work, "app"));
  writeFileSync(join(work, "app", "index.js"), "require('http').createServer().listen(8080);\n");
  return work;
}

/** Checks what a program saw (`run` gets the work folder, the API's URL and a token). */
async function runsTheStack(
  run: (work: string, url: string, token: string) => Promise<Seen>,
  domain: string,
) {
  emu.resetStats();
  const seen = await run(workWithApp(), emu.url, emu.issueToken());
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
    test("Python (the wheel of sdk/python/dist, pulumi_hosting)", async () => {
      // On a machine that never ran it, this builds Pulumi's code generator, the wheel, the venv.
      const program = join(__dirname, "python", "program.py");
      await runsTheStack(
        (work, url, token) => runPythonProgram(program, { work, url, token }),
        "www.py.pointed.test",
      );
    }, 900_000);

    test("Go (the committed module, sdk/go/hosting)", async () => {
      await runsTheStack(async (work, url, token) => {
        const args = [join(work, "app"), url, token, work];
        const { stdout } = await promisify(execFile)(goProgram(), args, {
          env: cliSession().env,
          maxBuffer: 16 * 1024 * 1024,
        });
        return JSON.parse(stdout.trim().split("\n").pop() ?? "{}") as Seen;
      }, "www.go.pointed.test");
    }, 1_500_000);
  },
);
