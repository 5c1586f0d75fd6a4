import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { RunningEmulator } from "../../src/emulator";
import { useEmulators } from "../helpers/emulator";
import { packedTarball } from "../helpers/packed-tarball";
import { ROOT } from "../helpers/pulumi-parts";
import { cliMissing, yamlMissing, type Run } from "../helpers/native-cli";
import {
  nodeModulesAbove,
  onUserPath,
  readmeInstall,
  removeUserFolders,
  sh,
  userFolder,
  userSession,
  warningsIn,
} from "../helpers/user-cli";
import { writeYamlProject } from "../helpers/yaml-project";

/*
 * The plugin as the package ships it (plugin/ of the packed tarball, unpacked where npm puts it),
 * installed by the README's own commands ("Install the plugin") into an empty PULUMI_HOME, both
 * ways: `--file <the executable>` and `--file <the folder>`.
 * Then, with only Pulumi, its YAML host and node on PATH, from folders with no node_modules
 * anywhere above them: get-schema, and a YAML program deployed, previewed with no change, a
 * resource imported back into it, destroyed; and not one warning printed.
 */

const { version } = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
  version: string;
};

const missing = cliMissing ?? yamlMissing;

(missing ? describe.skip : describe)(`the shipped plugin, installed ${missing ?? ""}`, () => {
  let emu: RunningEmulator;
  const emulators = useEmulators();
  let project: string;
  beforeAll(async () => {
    emu = await emulators.start({ seed: "plugin-install", setupDelayMs: 0 });
    // What `npm install pulumi-hosting` makes: the package at node_modules/pulumi-hosting.
    project = userFolder("npm-project");
    const at = join(project, "node_modules", "pulumi-hosting");
    mkdirSync(at, { recursive: true });
    execFileSync("tar", ["-xzf", await packedTarball(), "-C", at, "--strip-components=1"]);
  }, 300_000);
  afterAll(async () => {
    removeUserFolders();
  });

  test("the README installs it by the file or by the folder, for the package's version", () => {
    const lines = readmeInstall();
    expect(lines).toContain("npm install pulumi-hosting");
    expect(lines.filter((l) => l.includes(" --file "))).toEqual([
      'pulumi plugin install resource hosting "$V" --file node_modules/pulumi-hosting/plugin/pulumi-resource-hosting',
      'pulumi plugin install resource hosting "$V" --file node_modules/pulumi-hosting/plugin',
    ]);
  });

  test.each([
    ["file", "/pulumi-resource-hosting"],
    ["folder", "/plugin"],
  ])(
    "--file <the %s>: get-schema; up, a preview with no change, import, destroy; no warning",
    async (way, ending) => {
      const user = userSession();
      const runs: Run[] = [];
      const pulumi = async (args: string[], cwd: string) => {
        const run = await user.pulumi(args, cwd);
        runs.push(run);
        return run;
      };
      expect(onUserPath("pulumi-resource-hosting")).toEqual([]);
      const empty = userFolder("empty");

      // The README's lines: the version from the package, then the install.
      const lines = readmeInstall();
      const setV = lines.find((l) => l.startsWith("V="))!;
      const install = lines.find((l) => l.includes(" --file ") && l.endsWith(ending))!;
      runs.push(await sh([setV, install], project, user.env));
      const installed = join(user.home, "plugins", `resource-hosting-v${version}`);
      expect(existsSync(join(installed, "pulumi-resource-hosting"))).toBe(true);
      expect(nodeModulesAbove(installed)).toEqual([]);

      const schema = JSON.parse(
        (await pulumi(["package", "get-schema", `hosting@${version}`], empty)).stdout,
      ) as { name: string; version: string; resources: Record<string, unknown> };
      expect(schema).toMatchObject({ name: "hosting", version });
      expect(Object.keys(schema.resources)).toContain("hosting:index:App");

      const dir = userFolder("program");
      expect(nodeModulesAbove(dir)).toEqual([]);
      writeYamlProject(dir, "installed", `${way}-web`, `www.${way}.pointed.test`);
      await pulumi(["stack", "init", "dev"], dir);
      await pulumi(["config", "set", "hosting:apiUrl", emu.url], dir);
      await pulumi(["config", "set", "--secret", "hosting:token", emu.issueToken()], dir);

      await pulumi(["up", "--yes"], dir);
      const outputs = JSON.parse(
        (await pulumi(["stack", "output", "--json", "--show-secrets"], dir)).stdout,
      ) as { appId: string; domain: string; postgres: unknown[] };
      expect(emu.world.apps.find((a) => a.id === outputs.appId)?.name).toBe(`${way}-web`);
      expect(outputs.domain).toBe(`www.${way}.pointed.test`);
      expect(outputs.postgres.length).toBeGreaterThan(0);
      await pulumi(["preview", "--expect-no-changes"], dir);

      // The domain let go of, then imported back by its hostname: the program agrees with it.
      const urn = "urn:pulumi:dev::installed::hosting:index:CustomDomain::www";
      await pulumi(["state", "delete", urn, "--yes"], dir);
      const domain = `www.${way}.pointed.test`;
      const noCode = ["--generate-code=false", "--protect=false"];
      await pulumi(
        ["import", "hosting:index:CustomDomain", "www", domain, "--yes", ...noCode],
        dir,
      );
      await pulumi(["preview", "--expect-no-changes"], dir);

      await pulumi(["destroy", "--yes"], dir);
      expect(emu.world.apps.find((a) => a.id === outputs.appId)).toBeUndefined();
      expect(warningsIn(runs)).toEqual([]);
    },
    600_000,
  );
});
