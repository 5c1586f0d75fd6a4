import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { RunningEmulator } from "../../src/emulator";
import { appIdsOf, useEmulators } from "../helpers/emulator";
import { cliMissing, cliSession, yamlMissing } from "../helpers/native-cli";

/*
 * Whose app it is, with the native plugin's explicit providers (a YAML program through the real
 * CLI): an App moved from alice's provider to bob's, an explicit provider's token changed to
 * another account's (DiffConfig replaces the provider and its resources) or rotated (nothing),
 * and `pulumi:autonaming` honoured. Counted at the emulator: each user's apps.
 */

jest.setTimeout(600_000);

/** The program: two explicit providers (alice's and bob's tokens); the App uses `provider`. */
const program = (provider: "pa" | "pb") => `name: whose-yaml
runtime: yaml
config:
  apiUrl:
    type: string
  alice:
    type: string
  bob:
    type: string
resources:
  pa:
    type: pulumi:providers:hosting
    properties:
      apiUrl: \${apiUrl}
      token: \${alice}
  pb:
    type: pulumi:providers:hosting
    properties:
      apiUrl: \${apiUrl}
      token: \${bob}
  web:
    type: hosting:index:App
    properties:
      source: ./app
    options:
      provider: \${${provider}}
outputs:
  appId: \${web.id}
  appName: \${web.name}
`;

let emu: RunningEmulator;
const emulators = useEmulators();
beforeAll(async () => {
  emu = await emulators.start({ seed: "native-whose", setupDelayMs: 0 });
});

const appsOf = (user: string) => appIdsOf(emu, user);

const missing = cliMissing ?? yamlMissing;

(missing ? describe.skip : describe)(
  `explicit providers of the native plugin ${missing ?? ""}`,
  () => {
    const cli = cliSession();
    const set = (dir: string, key: string, value: string) =>
      cli.pulumi(["config", "set", "--secret", key, value], dir);
    /** A project of the program on alice's provider, its stack and config set. */
    async function project(stack: string) {
      const dir = mkdtempSync(join(tmpdir(), "hosting-whose-"));
      mkdirSync(join(dir, "app"));
      writeFileSync(join(dir, "app", "index.js"), "require('http').createServer().listen(8080);\n");
      writeFileSync(join(dir, "Pulumi.yaml"), program("pa"));
      await cli.pulumi(["stack", "init", stack], dir);
      await cli.pulumi(["config", "set", "apiUrl", emu.url], dir);
      await set(dir, "alice", emu.issueToken("alice"));
      await set(dir, "bob", emu.issueToken("bob"));
      return dir;
    }
    const preview = async (dir: string) => (await cli.pulumi(["preview", "--diff"], dir)).stdout;
    const outputs = async (dir: string) =>
      JSON.parse((await cli.pulumi(["stack", "output", "--json"], dir)).stdout) as {
        appId: string;
        appName: string;
      };

    test("an App named by pulumi:autonaming, then moved to another account's provider: replaced, the old app deleted through the old one", async () => {
      const dir = await project("moved");
      await cli.pulumi(
        ["config", "set", "--path", "pulumi:autonaming.pattern", "${project}-${name}-${hex(4)}"],
        dir,
      );
      await cli.pulumi(["up", "--yes"], dir);
      const { appId: first, appName } = await outputs(dir);
      expect(appName).toMatch(/^whose-yaml-web-[0-9a-f]{4}$/);
      expect(appsOf("alice")).toEqual([first]);
      // The next run keeps the name it has (no replace).
      await cli.pulumi(["preview", "--expect-no-changes"], dir);

      writeFileSync(join(dir, "Pulumi.yaml"), program("pb"));
      expect(await preview(dir)).toMatch(/replace/);
      await cli.pulumi(["up", "--yes"], dir);
      expect(appsOf("alice")).toEqual([]);
      expect(appsOf("bob")).toEqual([(await outputs(dir)).appId]);
      await cli.pulumi(["destroy", "--yes"], dir);
      expect(appsOf("bob")).toEqual([]);
    });

    test("an explicit provider's token: rotated, nothing; another account's, its resources replaced", async () => {
      const dir = await project("token");
      await cli.pulumi(["up", "--yes"], dir);
      const first = (await outputs(dir)).appId;

      await set(dir, "alice", emu.issueToken("alice", { expiresInSeconds: 7200 }));
      await cli.pulumi(["preview", "--expect-no-changes"], dir);
      await cli.pulumi(["up", "--yes"], dir);
      expect((await outputs(dir)).appId).toBe(first);
      expect(appsOf("alice")).toEqual([first]);

      // pa now holds bob's token: DiffConfig says the provider moves, so its App is replaced and
      // the old app deleted through the old provider, which still holds alice's.
      await set(dir, "alice", emu.issueToken("bob"));
      await cli.pulumi(["up", "--yes"], dir);
      expect(appsOf("alice")).toEqual([]);
      expect(appsOf("bob")).toEqual([(await outputs(dir)).appId]);
      await cli.pulumi(["destroy", "--yes"], dir);
      expect(appsOf("bob")).toEqual([]);
    });
  },
);
