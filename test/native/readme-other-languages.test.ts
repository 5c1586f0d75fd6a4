import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { ensureEntry, toolCache } from "../../scripts/cache-entry";
import type { RunningEmulator } from "../../src/emulator";
import { useEmulators } from "../helpers/emulator";
import { ROOT } from "../helpers/pulumi-parts";
import { cliMissing, cliSession, yamlMissing } from "../helpers/native-cli";
import { runPythonProgram } from "../helpers/python-run";

/*
 * The README's "Other languages" section, run from its text against the emulator: the SDKs'
 * install lines name what the build makes (the wheel of package.json's version, the Go module of
 * the schema), the Python example with the built wheel through the Automation API, the Go
 * example compiled against the committed module, the YAML example through the CLI (up, a preview
 * with no change), then the Import section's command takes its App into another stack, and the
 * YAML stack is destroyed.
 */

// eslint-disable-next-line @typescript-eslint/no-require-imports
const sdk = require("../../scripts/sdk") as {
  GO_SDK: string;
  filesOf(dir: string): string[];
  pythonWheel(): string;
};

const HEADING = "## Other languages: the native plugin";
const text = (() => {
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");
  const start = readme.indexOf(HEADING);
  if (start < 0) throw new Error(`README.md has no "${HEADING}"`);
  return readme.slice(start, readme.indexOf("\n## ", start + 1));
})();
/** The body of the section's one code block in `lang`. */
function block(lang: string): string {
  const found = [...text.matchAll(/^```(\w+)\n([\s\S]*?)^```/gm)].filter(([, l]) => l === lang);
  expect([lang, found.length]).toEqual([lang, 1]);
  return found[0][2];
}
/** The section's sh lines that start with `command`. */
const commands = (command: string) =>
  [...text.matchAll(/^```sh\n([\s\S]*?)^```/gm)]
    .flatMap(([, body]) => body.split("\n"))
    .filter((l) => l.startsWith(command));

const { version } = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
  version: string;
};

let emu: RunningEmulator;
const emulators = useEmulators();
beforeAll(async () => {
  // As written: the examples' domain ends in .pointed.test, which the emulator counts as pointed.
  emu = await emulators.start({ seed: "readme-languages", setupDelayMs: 0 });
});

function workWithApp(): string {
  const work = mkdtempSync(join(tmpdir(), "hosting-readme-"));
  mkdirSync(join(work, "app"));
  writeFileSync(join(work, "app", "index.js"), "require('http').createServer().listen(8080);\n");
  return work;
}

test("the install lines name this version's wheel, Go module and plugin", () => {
  const pip = commands("pip install");
  expect(pip).toHaveLength(2);
  expect(pip[0]).toMatch(
    new RegExp(`^pip install pulumi_hosting==${version.replace(/\./g, "\\.")}\\s`),
  );
  const wheel = /\.\/(\S+\.whl)/.exec(pip[1])?.[1];
  expect(wheel).toBe(`pulumi_hosting-${version}-py3-none-any.whl`);
  const goGet = commands("go get");
  expect(goGet).toHaveLength(1);
  const goMod = readFileSync(join(ROOT, "sdk", "go.mod"), "utf8");
  const module = /^module (\S+)$/m.exec(goMod)?.[1];
  expect(goGet[0]).toMatch(new RegExp(`^go get ${module}@v${version.replace(/\./g, "\\.")}\\s`));
  // The plugin's version is read from the installed package, so it is this one too.
  expect(commands("V=")[0]).toBe(`V=$(node -p 'require("pulumi-hosting/package.json").version')`);
  expect(commands("pulumi plugin install resource hosting")[0]).toContain(' "$V" --file ');
});

(cliMissing ? describe.skip : describe)(`the section's programs ${cliMissing ?? ""}`, () => {
  test("the built wheel is the one the README installs", () => {
    expect(basename(sdk.pythonWheel())).toBe(`pulumi_hosting-${version}-py3-none-any.whl`);
  }, 900_000);

  test("Python, with the built wheel: up, a preview with no change, destroy", async () => {
    const work = workWithApp();
    const program = join(work, "__main__.py");
    writeFileSync(program, block("python"));
    const seen = await runPythonProgram(program, { url: emu.url, token: emu.issueToken(), work });
    expect(seen.up).toEqual({ create: 3 });
    expect(seen.outputs.postgres.value).toBeGreaterThan(0);
    expect(JSON.stringify(seen.outputs.dnsRecords.value)).toContain("www.shop.pointed.test");
    expect(seen.preview).toEqual({ same: 3 });
    expect(seen.destroy).toEqual({ delete: 3 });
  }, 900_000);

  test("Go, against the committed module (go vet: it compiles)", async () => {
    const program = block("go");
    // Its own module, with the SDK by `replace`, checked once per content of the example.
    const hash = createHash("sha256").update(program);
    for (const f of sdk.filesOf(sdk.GO_SDK)) hash.update(readFileSync(join(sdk.GO_SDK, f)));
    const key = hash.digest("hex").slice(0, 16);
    ensureEntry(join(toolCache(), "readme-go", key), (at) => {
      writeFileSync(join(at, "main.go"), program);
      const goMod = ["module readme", "", "go 1.26.6", ""];
      goMod.push("require github.com/pulumi-hosting/pulumi-hosting/sdk v0.0.0", "");
      goMod.push(`replace github.com/pulumi-hosting/pulumi-hosting/sdk => ${join(ROOT, "sdk")}`);
      writeFileSync(join(at, "go.mod"), goMod.join("\n") + "\n");
      writeFileSync(join(at, "go.sum"), readFileSync(join(ROOT, "sdk", "go.sum")));
      // The entry is made only when the example compiles; a failure says where.
      execFileSync("go", ["vet", "."], {
        cwd: at,
        env: { ...process.env, GOFLAGS: "-mod=mod", GOSUMDB: "off" },
        stdio: ["ignore", "pipe", "pipe"],
      });
    });
  }, 900_000);

  (yamlMissing ? test.skip : test)(
    "YAML through the CLI: up, a preview with no change; the Import command; destroy",
    async () => {
      const cli = cliSession();
      const dir = workWithApp();
      writeFileSync(join(dir, "Pulumi.yaml"), block("yaml"));
      await cli.pulumi(["stack", "init", "dev"], dir);
      await cli.pulumi(["config", "set", "hosting:apiUrl", emu.url], dir);
      await cli.pulumi(["config", "set", "--secret", "hosting:token", emu.issueToken()], dir);
      await cli.pulumi(["up", "--yes"], dir);
      const outputs = JSON.parse((await cli.pulumi(["stack", "output", "--json"], dir)).stdout) as {
        subdomain: string;
      };
      const app = emu.world.apps.find((a) => a.subdomain === outputs.subdomain);
      expect(app).toBeDefined();
      await cli.pulumi(["preview", "--expect-no-changes"], dir);

      // The Import section's command, as written, with the app's id: into another stack.
      const line = /`(pulumi import hosting:index:App web <app id>)`/.exec(text)?.[1];
      expect(line).toBeDefined();
      const args = line!.replace("<app id>", app!.id).split(" ").slice(1);
      const other = mkdtempSync(join(tmpdir(), "hosting-readme-import-"));
      writeFileSync(join(other, "Pulumi.yaml"), "name: imported\nruntime: yaml\n");
      await cli.pulumi(["stack", "init", "dev"], other);
      await cli.pulumi(["config", "set", "hosting:apiUrl", emu.url], other);
      await cli.pulumi(["config", "set", "--secret", "hosting:token", emu.issueToken()], other);
      await cli.pulumi([...args, "--yes", "--generate-code=false"], other);
      const state = JSON.parse((await cli.pulumi(["stack", "export"], other)).stdout) as {
        deployment: {
          resources: Array<{ type: string; id?: string; outputs?: { name?: string } }>;
        };
      };
      const imported = state.deployment.resources.find((r) => r.type === "hosting:index:App");
      expect(imported).toMatchObject({ id: app!.id, outputs: { name: "web" } });
      // The imported stack lets go of it (the YAML stack owns it and destroys it).
      await cli.pulumi(["stack", "rm", "--force", "--yes"], other);

      await cli.pulumi(["destroy", "--yes"], dir);
      expect(emu.world.apps).toEqual([]);
    },
    600_000,
  );
});
