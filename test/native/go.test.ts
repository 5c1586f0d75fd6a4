import { execFile } from "node:child_process";
import { mkdtempSync, mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { startEmulator, type RunningEmulator } from "../../src/emulator";
import { cliMissing, cliSession } from "./cli";
import { goProgram } from "./sdk-cache";

/*
 * A Go program of the SDK generated from the plugin's schema (test/native/go/main.go), through
 * the real engine by the Automation API's inline program, against the emulator: an App from a
 * local folder, a domain, a data source; up, a preview with no change, destroy.
 */

const run = promisify(execFile);

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await startEmulator({ seed: "native-go", setupDelayMs: 0 });
});
afterAll(async () => {
  await emu?.stop();
});

(cliMissing ? describe.skip : describe)(`a Go program ${cliMissing ?? ""}`, () => {
  test("up, a preview with no change, destroy; env a secret", async () => {
    const program = await goProgram();
    const work = mkdtempSync(join(tmpdir(), "hosting-go-"));
    mkdirSync(join(work, "app"));
    writeFileSync(join(work, "app", "index.js"), "require('http').createServer().listen(8080);\n");
    const token = emu.issueToken();
    const { stdout } = await run(program, [join(work, "app"), emu.url, token, work], {
      env: cliSession().env,
      maxBuffer: 16 * 1024 * 1024,
    });
    const seen = JSON.parse(stdout.trim().split("\n").pop() ?? "{}") as {
      outputs: Record<string, { value: unknown; secret: boolean }>;
      up: Record<string, number>;
      preview: Record<string, number>;
      tokenInState: boolean;
      destroy: Record<string, number>;
    };
    expect(seen.up).toEqual({ create: 3 });
    expect(seen.outputs.env).toEqual({ value: { K: "v" }, secret: true });
    expect(seen.outputs.domain.value).toBe("www.go.pointed.test");
    expect(seen.outputs.postgres.value).toBeGreaterThan(0);
    expect(seen.preview).toEqual({ same: 3 });
    // The exported state keeps secrets sealed: the token is not in it.
    expect(seen.tokenInState).toBe(false);
    expect(seen.destroy).toEqual({ delete: 3 });
    expect(emu.stats().requests["POST /apps"]).toBe(1);
    expect(emu.world.apps.some((a) => a.id === seen.outputs.appId.value)).toBe(false);
  }, 900_000);
});
