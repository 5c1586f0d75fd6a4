import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { cliMissing, cliSession } from "../helpers/native-cli";
import type { Seen } from "../helpers/python-run";
import { outputsOfSeen, pageExamples, runExamples } from "../helpers/reference-run";
import { goModuleFiles, goModuleProgram } from "../helpers/sdk-cache";

/*
 * Every Go example of docs/reference, as the pages show it, compiled against the committed SDK
 * and run as one stack through the engine by the Automation API (go/stackrun) against the
 * emulator: up, a preview, destroy. Each example becomes a package of its own whose `main` body
 * is its Program; a runner calls them all in one pulumi.RunFunc.
 */

const HEAD = "func main() {\n\tpulumi.Run(func(ctx *pulumi.Context) error {\n";
const TAIL = "\t})\n}\n";

/** An example's `package main` as package `pkg`, its program as `Program(ctx)`. */
function asPackage(page: string, pkg: string, text: string): string {
  if (!text.startsWith("package main\n") || text.split(HEAD).length !== 2 || !text.endsWith(TAIL)) {
    throw new Error(
      `the Go example of ${page} is not a main of one pulumi.Run: update ${__filename}`,
    );
  }
  const body = text
    .slice(0, -TAIL.length)
    .replace(HEAD, "func Program(ctx *pulumi.Context) error {\n");
  return body.replace("package main\n", `package ${pkg}\n`) + "}\n";
}

/** The runner: every example's Program in one stack, config from `key=value` arguments. */
function runner(packages: string[]): string {
  return `package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"

	"gohosting/stackrun"
${packages.map((p, i) => `\texample${i} "gohosting/examples/${p}"`).join("\n")}
)

// Usage: examples <api url> <token> <work dir> [<config key>=<value> ...]
func main() {
	config := map[string]string{}
	for _, kv := range os.Args[4:] {
		k, v, _ := strings.Cut(kv, "=")
		config[k] = v
	}
	examples := []pulumi.RunFunc{${packages.map((_, i) => `example${i}.Program`).join(", ")}}
	program := func(ctx *pulumi.Context) error {
		for _, example := range examples {
			if err := example(ctx); err != nil {
				return err
			}
		}
		return nil
	}
	if err := stackrun.Run("go-examples", program, os.Args[1], os.Args[2], os.Args[3], config); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
`;
}

(cliMissing ? describe.skip : describe)(
  `the reference pages' Go examples ${cliMissing ?? ""}`,
  () => {
    test("compiled, as one stack: up gives every output, a preview changes nothing, destroy leaves nothing", async () => {
      // On a machine that never ran it, this compiles Pulumi's Go SDK (minutes).
      const files: Record<string, string> = { ...goModuleFiles() };
      const packages: string[] = [];
      for (const [page, text] of pageExamples("go")) {
        const pkg = page.toLowerCase();
        packages.push(pkg);
        files[`examples/${pkg}/program.go`] = asPackage(page, pkg, text);
      }
      files["main.go"] = runner(packages);
      // The examples import packages the runner does not (config: spf13/cast): go.mod is completed.
      const program = goModuleProgram("go-examples", files, { complete: true });

      await runExamples("reference-go", async (w) => {
        const args = [
          w.emu.url,
          w.token,
          w.work,
          ...Object.entries(w.config).map(([k, v]) => `${k}=${v}`),
        ];
        const { stdout } = await promisify(execFile)(program, args, {
          env: cliSession().env,
          maxBuffer: 16 * 1024 * 1024,
        });
        return outputsOfSeen(JSON.parse(stdout.trim().split("\n").pop() ?? "{}") as Seen);
      });
    }, 1_500_000);
  },
);
