import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { parse, stringify } from "yaml";
import { cliMissing, cliSession, yamlMissing } from "../helpers/native-cli";
import { cliOutputs, pageExamples, runExamples } from "../helpers/reference-run";

/*
 * Every YAML example of docs/reference, as the pages show it, merged into one program and run
 * through the real CLI and YAML's language host against the emulator: up, then destroy.
 */

const SECTIONS = ["config", "resources", "variables", "outputs"] as const;
type Program = Partial<Record<(typeof SECTIONS)[number], Record<string, unknown>>>;

/**
 * One program of all: a resource, variable or output of the same name in two examples is an
 * error (their objects would collide in one stack); a config key may be shared when declared
 * alike.
 */
function merged(examples: Map<string, string>): string {
  const out: Program & { name: string; runtime: string } = {
    name: "yaml-examples",
    runtime: "yaml",
  };
  for (const [page, text] of examples) {
    const program = parse(text) as Program;
    for (const section of SECTIONS) {
      for (const [key, value] of Object.entries(program[section] ?? {})) {
        const into = (out[section] ??= {});
        const shared = section === "config" && JSON.stringify(into[key]) === JSON.stringify(value);
        if (key in into && !shared) {
          throw new Error(`${page}.yaml: ${section}.${key} is in another example too: rename it`);
        }
        into[key] = value;
      }
    }
  }
  return stringify(out);
}

const missing = cliMissing ?? yamlMissing;

(missing ? describe.skip : describe)(`the reference pages' YAML examples ${missing ?? ""}`, () => {
  test("as one stack through the CLI: up gives every output, destroy leaves nothing", async () => {
    await runExamples("reference-yaml", async (w) => {
      const cli = cliSession();
      const dir = w.work;
      writeFileSync(join(dir, "Pulumi.yaml"), merged(pageExamples("yaml")));
      await cli.pulumi(["stack", "init", "dev"], dir);
      await cli.pulumi(["config", "set", "hosting:apiUrl", w.emu.url], dir);
      await cli.pulumi(["config", "set", "--secret", "hosting:token", w.token], dir);
      for (const [k, v] of Object.entries(w.config)) await cli.pulumi(["config", "set", k, v], dir);
      await cli.pulumi(["up", "--yes", "--skip-preview"], dir);
      const output = async (...flags: string[]) =>
        JSON.parse(
          (await cli.pulumi(["stack", "output", "--json", ...flags], dir)).stdout,
        ) as Record<string, unknown>;
      const outputs = cliOutputs(await output("--show-secrets"), await output());
      await cli.pulumi(["destroy", "--yes", "--skip-preview"], dir);
      return outputs;
    });
  }, 900_000);
});
