import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { RunningEmulator } from "../../src/emulator";
import { useEmulators } from "../helpers/emulator";
import { tokenFormsIn } from "../helpers/token-forms";
import { cliMissing, cliSession, projectDir, type Run } from "../helpers/native-cli";

/*
 * Every way of giving the native plugin a token, through the real CLI: stack config
 * (`hosting:token`, `hosting:accounts.x.token` by --path --secret), an explicit provider's
 * `token` argument, its `accounts` argument (an object, as YAML and a raw ProviderResource send
 * it, and JSON text, as the generated SDKs send it), and the environment (HOSTING_TOKEN,
 * HOSTING_W_TOKEN). The program passes every token in plain text, as a program that reads it
 * from a file or a variable does: the schema's `secret` marks alone must seal it. No token may
 * show in `pulumi stack export`, the event log or what preview, up and destroy print.
 */

const SIG = "4dabf18193072939515e22adb298388d";
const SEALED = { [SIG]: "1b47061264138c4ac30d75fd1eb44270", ciphertext: expect.any(String) };

const PROGRAM = `
const pulumi = require("@pulumi/pulumi");
const App = "hosting:index:App";
const url = process.env.EMU_URL;
const app = (name, account, provider) =>
  new pulumi.CustomResource(App, name, { source: "./app", name, account }, { provider });
if (pulumi.getStack() === "config") {
  app("by-config");
  app("by-config-account", "x");
  const byToken = new pulumi.ProviderResource("hosting", "by-token", {
    apiUrl: url,
    token: process.env.ARG_TOKEN,
  });
  app("by-token-arg", undefined, byToken);
  const byAccounts = new pulumi.ProviderResource("hosting", "by-accounts", {
    apiUrl: url,
    accounts: { y: { apiUrl: url, token: process.env.ARG_Y_TOKEN } },
  });
  app("by-accounts-arg", "y", byAccounts);
  const byJson = new pulumi.ProviderResource("hosting", "by-json", {
    accounts: JSON.stringify({ z: { apiUrl: url, token: process.env.ARG_Z_TOKEN } }),
  });
  app("by-json-arg", "z", byJson);
} else {
  app("by-env");
  app("by-env-account", "w");
}
`;

interface Resource {
  urn: string;
  type: string;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
}

/**
 * The event log's lines less the program's debug diagnostics: @pulumi/pulumi logs each
 * RegisterResource reply at debug level, outputs included, secrets in plain text (an explicit
 * provider's token as much as an App's `env`); shown only with `--debug`, and not the plugin's.
 */
const shownEvents = (log: string) =>
  log
    .split("\n")
    .filter((l) => l.trim() !== "")
    .filter((l) => (JSON.parse(l) as EngineEvent).diagnosticEvent?.severity !== "debug");

interface EngineEvent {
  diagnosticEvent?: { severity?: string };
}

let emu: RunningEmulator;
const emulators = useEmulators();
beforeAll(async () => {
  emu = await emulators.start({ seed: "native-secrets", setupDelayMs: 0 });
});

(cliMissing ? describe.skip : describe)(
  `secrets of the native plugin through the Pulumi CLI ${cliMissing ?? ""}`,
  () => {
    test("no token in plain text wherever it was given: state, event log, preview and up output", async () => {
      const [alice, bob] = emu.users.map((u) => u.id);
      // A token of its own for each way (a leak names its way), owned by alice or bob.
      let n = 0;
      const token = (user: string) => emu.issueToken(user, { expiresInSeconds: 3600 + n++ });
      const tokens = {
        config: token(alice),
        configAccount: token(bob),
        arg: token(bob),
        argAccount: token(alice),
        argJson: token(bob),
        env: token(alice),
        envAccount: token(bob),
      };
      const dir = projectDir("sealed", {
        "index.js": PROGRAM,
        "app/index.js": "require('http').createServer().listen(8080);\n",
      });
      const withArgs = cliSession({
        EMU_URL: emu.url,
        ARG_TOKEN: tokens.arg,
        ARG_Y_TOKEN: tokens.argAccount,
        ARG_Z_TOKEN: tokens.argJson,
      });
      const withEnv = cliSession({ HOSTING_TOKEN: tokens.env, HOSTING_W_TOKEN: tokens.envAccount });
      const said: Run[] = [];
      const say = async (p: Promise<Run>) => {
        said.push(await p);
        return said[said.length - 1];
      };

      const config = async (args: string[]) => withArgs.pulumi(["config", "set", ...args], dir);
      await withArgs.pulumi(["stack", "init", "config"], dir);
      await config(["hosting:apiUrl", emu.url]);
      await config(["--secret", "hosting:token", tokens.config]);
      await config(["--path", "hosting:accounts.x.apiUrl", emu.url]);
      await config(["--path", "--secret", "hosting:accounts.x.token", tokens.configAccount]);
      await withEnv.pulumi(["stack", "init", "env"], dir);
      await withEnv.pulumi(["config", "set", "hosting:apiUrl", emu.url], dir);

      const events: string[] = [];
      for (const [cli, stack] of [
        [withArgs, "config"],
        [withEnv, "env"],
      ] as const) {
        // `up` prints its preview first, with --diff every input of every step.
        const log = join(cli.base, `${stack}-events.json`);
        await say(cli.pulumi(["up", "--yes", "--diff", "--stack", stack, "--event-log", log], dir));
        events.push(...shownEvents(readFileSync(log, "utf8")));
        // The sealed inputs are stable: a second preview changes nothing.
        await say(cli.pulumi(["preview", "--expect-no-changes", "--diff", "--stack", stack], dir));
      }

      // Each app is where its token put it.
      const owner = (name: string) => emu.world.apps.find((a) => a.name === name)?.user_id;
      expect(
        Object.fromEntries(
          ["by-config", "by-config-account", "by-token-arg", "by-accounts-arg", "by-json-arg"]
            .concat(["by-env", "by-env-account"])
            .map((name) => [name, owner(name)]),
        ),
      ).toEqual({
        "by-config": alice,
        "by-config-account": bob,
        "by-token-arg": bob,
        "by-accounts-arg": alice,
        "by-json-arg": bob,
        "by-env": alice,
        "by-env-account": bob,
      });

      const exported = {
        config: (await withArgs.pulumi(["stack", "export", "--stack", "config"], dir)).stdout,
        env: (await withEnv.pulumi(["stack", "export", "--stack", "env"], dir)).stdout,
      };
      const everything = [
        ...Object.values(exported),
        ...events,
        ...said.map((r) => `${r.stdout}\n${r.stderr}`),
      ].join("\n");
      const found = Object.entries(tokens).filter(([, t]) => tokenFormsIn(everything, t).length);
      expect(found.map(([way]) => way)).toEqual([]);

      // Sealed where the schema marks them: in the explicit providers' inputs and outputs.
      const resources = (JSON.parse(exported.config) as { deployment: { resources: Resource[] } })
        .deployment.resources;
      const provider = (name: string) =>
        resources.find((r) => r.urn.endsWith(`pulumi:providers:hosting::${name}`))!;
      for (const side of ["inputs", "outputs"] as const) {
        expect(provider("by-token")[side]?.token).toEqual(SEALED);
        expect(provider("by-accounts")[side]?.accounts).toEqual({
          y: { apiUrl: emu.url, token: SEALED },
        });
        expect(provider("by-json")[side]?.accounts).toEqual(SEALED);
      }

      for (const [cli, stack] of [
        [withArgs, "config"],
        [withEnv, "env"],
      ] as const) {
        const r = await cli.pulumi(["destroy", "--yes", "--stack", stack], dir);
        expect(
          Object.entries(tokens).filter(([, t]) => tokenFormsIn(r.stdout + r.stderr, t).length),
        ).toEqual([]);
      }
      expect(emu.world.apps).toEqual([]);
    }, 600_000);
  },
);
