import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describeEngine, ok, projectFrom, PulumiStack } from "../helpers/engine";
import { cliOutputs, pageExamples, runExamples } from "../helpers/reference-run";

/*
 * Every TypeScript example of docs/reference, as the pages show it, run as one stack through the
 * real CLI (this package's classes, Pulumi's dynamic providers) against the emulator: up, then
 * destroy. Each example is a module of its own (their `config` constants do not meet); index.ts
 * re-exports them all, so two examples exporting one name would not compile.
 */

const PROJECT = "ts-examples";

describeEngine("the reference pages' TypeScript examples", () => {
  test("as one stack through the CLI: up gives every output, destroy leaves nothing", async () => {
    await runExamples("reference-typescript", async (w) => {
      const examples = pageExamples("typescript");
      mkdirSync(join(w.work, "examples"));
      for (const [name, text] of examples)
        writeFileSync(join(w.work, "examples", `${name}.ts`), text);
      const index = [...examples.keys()].map((name) => `export * from "./examples/${name}";`);
      writeFileSync(join(w.work, "index.ts"), index.join("\n") + "\n");
      const dir = projectFrom(w.work);
      const stack = new PulumiStack({ dir, project: PROJECT });
      const config = Object.fromEntries(
        Object.entries(w.config).map(([k, v]) => [`${PROJECT}:${k}`, v]),
      );
      await stack.init({
        config: { "hosting:apiUrl": w.emu.url, ...config },
        secrets: { "hosting:token": w.token },
      });
      ok(await stack.up([], { timeoutMs: 600_000 }));
      const outputs = cliOutputs(await stack.outputs({ showSecrets: true }), await stack.outputs());
      ok(await stack.destroy([], { timeoutMs: 600_000 }));
      return outputs;
    });
  }, 900_000);
});
