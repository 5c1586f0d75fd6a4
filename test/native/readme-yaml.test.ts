import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { useEmulator } from "../helpers/emulator";
import { codeBlocks, readmeText } from "../helpers/readme";
import { cliMissing, cliSession, yamlMissing } from "./cli";

/*
 * The README's Pulumi YAML sample, its text as the README has it (the one `yaml` block that is a
 * Pulumi YAML program), run through the native plugin and YAML's language host against the
 * emulator, connected by the environment as the README allows: up makes the app and attaches its
 * domain, destroy leaves nothing. The test adds only what the sample leaves to the user: the
 * `./app` folder it names, and the connection.
 */

const env = useEmulator({ seed: "readme-yaml", setupDelayMs: 0 });

const missing = cliMissing ?? yamlMissing;

(missing ? describe.skip : describe)(`the README's YAML sample ${missing ?? ""}`, () => {
  test("deploys against the emulator as written: the app, its domain; destroy leaves nothing", async () => {
    const samples = codeBlocks(readmeText()).filter(
      (b) => b.lang === "yaml" && /^runtime: yaml$/m.test(b.body),
    );
    expect(samples).toHaveLength(1);
    const program = samples[0].body;
    const emu = env.emu;
    const cli = cliSession({ HOSTING_API_URL: emu.url, HOSTING_TOKEN: emu.issueToken() });
    const dir = mkdtempSync(join(tmpdir(), "hosting-readme-yaml-"));
    mkdirSync(join(dir, "app"));
    writeFileSync(join(dir, "app", "index.js"), "require('http').createServer().listen(8080);\n");
    writeFileSync(join(dir, "Pulumi.yaml"), program);

    await cli.pulumi(["stack", "init", "dev"], dir);
    await cli.pulumi(["up", "--yes"], dir);
    const outputs = JSON.parse((await cli.pulumi(["stack", "output", "--json"], dir)).stdout) as {
      subdomain: string;
    };
    const [app, ...others] = emu.world.apps;
    expect(others).toEqual([]);
    expect(outputs.subdomain).toBe(app.subdomain);
    // The sample's domain, attached: a name the emulator treats as pointed at the edge.
    expect(app.domain?.hostname).toMatch(/\.pointed\.test$/);
    expect(program).toContain(`domain: ${app.domain?.hostname}`);
    expect(app.env_keys).toEqual(["GREETING"]);

    await cli.pulumi(["destroy", "--yes"], dir);
    expect(emu.world.apps).toEqual([]);
  }, 300_000);
});
