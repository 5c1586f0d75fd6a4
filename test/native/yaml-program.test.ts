import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { RunningEmulator } from "../../src/emulator";
import { useEmulators } from "../helpers/emulator";
import { cliMissing, cliSession, yamlMissing } from "../helpers/native-cli";
import { writeYamlProject } from "../helpers/yaml-project";

/*
 * A Pulumi YAML program of the native plugin, through the real CLI and YAML's own language host
 * (no SDK: YAML reads the plugin's schema): an App from a local folder with a secret env, a
 * domain on it, a data source; up, a preview with no change, destroy.
 */

let emu: RunningEmulator;
const emulators = useEmulators();
beforeAll(async () => {
  emu = await emulators.start({ seed: "native-yaml", setupDelayMs: 0 });
});

const missing = cliMissing ?? yamlMissing;

(missing ? describe.skip : describe)(`a YAML program of the native plugin ${missing ?? ""}`, () => {
  test("up, a preview with no change, destroy; the token only sealed, env a secret", async () => {
    const cli = cliSession();
    const dir = mkdtempSync(join(tmpdir(), "hosting-yaml-"));
    writeYamlProject(dir, "yaml-hosting", "yaml-web", "www.yaml.pointed.test");
    const token = emu.issueToken();
    await cli.pulumi(["stack", "init", "dev"], dir);
    await cli.pulumi(["config", "set", "hosting:apiUrl", emu.url], dir);
    await cli.pulumi(["config", "set", "--secret", "hosting:token", token], dir);

    await cli.pulumi(["up", "--yes"], dir);
    const outputs = JSON.parse(
      (await cli.pulumi(["stack", "output", "--json", "--show-secrets"], dir)).stdout,
    ) as { appId: string; env: unknown; domain: string; postgres: unknown[] };
    expect(emu.world.apps.map((a) => a.id)).toEqual([outputs.appId]);
    expect(outputs.env).toEqual({ K: "v" });
    expect(outputs.domain).toBe("www.yaml.pointed.test");
    expect(outputs.postgres.length).toBeGreaterThan(0);
    // Without --show-secrets, env is hidden; in the state it is ciphertext, and the token too.
    const shown = JSON.parse((await cli.pulumi(["stack", "output", "--json"], dir)).stdout) as {
      env: unknown;
    };
    expect(shown.env).toBe("[secret]");
    const state = (await cli.pulumi(["stack", "export"], dir)).stdout;
    expect(state).not.toContain(token);
    const app = (
      JSON.parse(state) as {
        deployment: { resources: Array<{ type: string; outputs?: { env?: unknown } }> };
      }
    ).deployment.resources.find((r) => r.type === "hosting:index:App");
    // Pulumi's mark of a secret value: ciphertext in place of { K: "v" }.
    expect(app?.outputs?.env).toEqual({
      "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270",
      ciphertext: expect.any(String),
    });

    await cli.pulumi(["preview", "--expect-no-changes"], dir);
    await cli.pulumi(["destroy", "--yes"], dir);
    expect(emu.world.apps).toEqual([]);
    expect(emu.stats().requests["POST /apps"]).toBe(1);
  }, 300_000);
});
