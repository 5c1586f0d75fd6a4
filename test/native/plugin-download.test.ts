import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { basename, join } from "node:path";
import type { RunningEmulator } from "../../src/emulator";
import { useEmulators } from "../helpers/emulator";
import { ROOT } from "../helpers/pulumi-parts";
import { cliMissing, yamlMissing, type Run } from "../helpers/native-cli";
import { readmeInstall, readmeInstallSection, removeUserFolders, sh } from "../helpers/user-cli";
import { userFolder, userSession, warningsIn } from "../helpers/user-cli";
import { writeYamlProject } from "../helpers/yaml-project";

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { writeArchives } = require("../../scripts/plugin-archives") as {
  writeArchives(outDir: string): string[];
};

/*
 * The release archives (scripts/plugin-archives.js) served from a local HTTP server, as a release
 * serves them: `pulumi plugin install resource hosting <version> --server <its URL>` into an empty
 * PULUMI_HOME, and a YAML program whose SDK (the package declaration `pulumi package gen-sdk
 * --language yaml` writes from the schema) names the schema's pluginDownloadURL: the engine
 * downloads the plugin when the program first needs it. PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES
 * points that URL at the local server, the only place a download can come from.
 */

const { version, repository } = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
  version: string;
  repository: { url: string };
};
// The schema's URL names the repository package.json names (git+https://github.com/<o>/<r>.git).
const REPO = /github\.com\/([^/]+\/[^/.]+)/.exec(repository.url)?.[1];
const DOWNLOAD_URL = `github://api.github.com/${REPO}`;

const OS: Record<string, string> = { linux: "linux", darwin: "darwin", win32: "windows" };
const ARCH: Record<string, string> = { x64: "amd64", arm64: "arm64" };
const ARCHIVE = `pulumi-resource-hosting-v${version}-${OS[process.platform]}-${ARCH[process.arch]}.tar.gz`;

const missing = cliMissing ?? yamlMissing;

(missing ? describe.skip : describe)(`the plugin downloaded ${missing ?? ""}`, () => {
  let emu: RunningEmulator;
  const emulators = useEmulators();
  let server: Server;
  let serverUrl: string;
  const requests: string[] = [];

  beforeAll(async () => {
    emu = await emulators.start({ seed: "plugin-download", setupDelayMs: 0 });
    const archives = new Map(
      writeArchives(userFolder("archives")).map((file) => [`/${basename(file)}`, file]),
    );
    server = createServer((req, res) => {
      requests.push(`${req.method} ${req.url}`);
      const file = req.method === "GET" ? archives.get(req.url ?? "") : undefined;
      if (!file) return res.writeHead(404).end();
      // With its length, as a release serves it (the CLI refuses a download of unknown size).
      const data = readFileSync(file);
      res.writeHead(200, { "content-type": "application/gzip", "content-length": data.length });
      res.end(data);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    serverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }, 300_000);
  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
    removeUserFolders();
  });
  beforeEach(() => {
    requests.length = 0;
  });

  test("the README's `pulumi plugin install … --server <url>`, with the local server's URL, installs a working plugin", async () => {
    // The README names the release the schema names; here the same archives come from 127.0.0.1.
    const lines = readmeInstall();
    const setV = lines.find((l) => l.startsWith("V="))!;
    const install = lines.find((l) => l.includes(" --server "))!;
    expect(install).toBe(`pulumi plugin install resource hosting "$V" --server ${DOWNLOAD_URL}`);
    const user = userSession();
    // Where the README's npm install put the package, for its version line.
    const project = userFolder("npm-project");
    mkdirSync(join(project, "node_modules", "pulumi-hosting"), { recursive: true });
    copyFileSync(
      join(ROOT, "package.json"),
      join(project, "node_modules", "pulumi-hosting", "package.json"),
    );
    const runs: Run[] = [];
    runs.push(await sh([setV, install.replace(DOWNLOAD_URL, serverUrl)], project, user.env));
    const empty = userFolder("empty");
    expect(requests).toEqual([`GET /${ARCHIVE}`]);
    const installed = join(user.home, "plugins", `resource-hosting-v${version}`);
    expect(readdirSync(installed).sort()).toEqual(
      ["LICENSE", "pulumi-resource-hosting", "schema.json"].sort(),
    );
    const got = await user.pulumi(["package", "get-schema", `hosting@${version}`], empty);
    runs.push(got);
    const schema = JSON.parse(got.stdout) as { version: string; pluginDownloadURL: string };
    expect(schema).toMatchObject({ version, pluginDownloadURL: DOWNLOAD_URL });
    expect(warningsIn(runs)).toEqual([]);
  }, 300_000);

  test("a YAML program whose SDK names the plugin gets it downloaded: up, a preview with no change, destroy", async () => {
    const dir = userFolder("program");
    writeYamlProject(dir, "downloaded", "downloaded-web", "www.downloaded.pointed.test");
    // The SDK, as a user makes it from the plugin: a package declaration naming the plugin's
    // version and download URL (from the schema).
    const plugin = join(ROOT, "plugin", "pulumi-resource-hosting");
    await userSession().pulumi(
      ["package", "gen-sdk", plugin, "--language", "yaml", "--out", "sdks"],
      dir,
    );
    const declaration = readFileSync(join(dir, "sdks", "yaml", `hosting-${version}.yaml`), "utf8");
    expect(declaration).toContain(`version: ${version}`);
    expect(declaration).toContain(`downloadUrl: ${DOWNLOAD_URL}`);

    // The README's override of the schema's URL, pointed at the local server.
    const override = /PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES='([^']+)'/.exec(readmeInstallSection());
    expect(override?.[1]).toBe(`^${DOWNLOAD_URL.replace(/\./g, "\\.")}=<its URL>`);
    const user = userSession({
      PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "false",
      PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES: override![1].replace("<its URL>", serverUrl),
    });
    const installed = join(user.home, "plugins", `resource-hosting-v${version}`);
    expect(existsSync(installed)).toBe(false);
    const runs: Run[] = [];
    const pulumi = async (args: string[]) => {
      runs.push(await user.pulumi(args, dir));
      return runs[runs.length - 1];
    };
    await pulumi(["stack", "init", "dev"]);
    await pulumi(["config", "set", "hosting:apiUrl", emu.url]);
    await pulumi(["config", "set", "--secret", "hosting:token", emu.issueToken()]);

    await pulumi(["up", "--yes"]);
    expect(new Set(requests)).toEqual(new Set([`GET /${ARCHIVE}`]));
    expect(existsSync(join(installed, "pulumi-resource-hosting"))).toBe(true);
    const { appId } = JSON.parse((await pulumi(["stack", "output", "--json"])).stdout) as {
      appId: string;
    };
    expect(emu.world.apps.find((a) => a.id === appId)?.name).toBe("downloaded-web");

    await pulumi(["preview", "--expect-no-changes"]);
    await pulumi(["destroy", "--yes"]);
    expect(emu.world.apps.find((a) => a.id === appId)).toBeUndefined();
    // Downloaded once, then taken from PULUMI_HOME.
    expect(requests.filter((r) => r === `GET /${ARCHIVE}`)).toHaveLength(1);
    expect(warningsIn(runs)).toEqual([]);
  }, 600_000);
});
