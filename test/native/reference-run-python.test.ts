import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cliMissing } from "../helpers/native-cli";
import { runPythonProgram } from "../helpers/python-run";
import { outputsOfSeen, pageExamples, runExamples } from "../helpers/reference-run";

/*
 * Every Python example of docs/reference, as the pages show it, run as one stack through the
 * engine by the Automation API (python/run.py, the wheel installed by pip) against the emulator:
 * up, a preview, destroy. Each example runs as a script of its own, as `pulumi up` would run it.
 */

(cliMissing ? describe.skip : describe)(
  `the reference pages' Python examples ${cliMissing ?? ""}`,
  () => {
    test("as one stack: up gives every output, a preview changes nothing, destroy leaves nothing", async () => {
      await runExamples("reference-python", async (w) => {
        const examples = pageExamples("python");
        mkdirSync(join(w.work, "examples"));
        const scripts = [...examples].map(([name, text]) => {
          const file = join(w.work, "examples", `${name}.py`);
          writeFileSync(file, text);
          return file;
        });
        const program = join(w.work, "program.py");
        writeFileSync(
          program,
          [
            "import runpy",
            `for script in ${JSON.stringify(scripts)}:`,
            '    runpy.run_path(script, run_name="__main__")',
            "",
          ].join("\n"),
        );
        return outputsOfSeen(
          await runPythonProgram(program, { ...w, url: w.emu.url, config: w.config }),
        );
      });
    }, 900_000);
  },
);
