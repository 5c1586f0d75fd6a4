import { existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { packedTarball } from "../helpers/packed-tarball";
import { emulatorOf, type SpawnedEmulator } from "../helpers/spawn-emulator";
import { codeBlocks, readmeSection } from "../helpers/readme";
import { ShellSession, type ShellRun } from "../helpers/shell-session";
import { describeEngine } from "../helpers/engine";
import { engine, engineEnv } from "../helpers/pulumi";

/*
 * The README's "Your own program, from an empty folder", followed literally: every command of its
 * shell blocks, read from the README, run in order in an empty folder outside this repository
 * (nothing resolves from its node_modules), `cd` and `export` carried from one to the next as in
 * a terminal, and its `index.ts` written where the README shows it. What the test changes, and
 * nothing else:
 * - `npm install pulumi-hosting …`: the package is not published, so the packed tarball's path
 *   stands for its name (this one word);
 * - `npx hosting-emulator --port 8080 …` runs in the background (the README's "one terminal") on
 *   port 0, and the two `export` lines take the URL and token it printed;
 * - `pulumi login --local` logs in to a folder of the test's own (`pulumi login file://…`): the
 *   CLI takes `~` from the user database, not from HOME, so `--local` would write the stack into
 *   the developer's own ~/.pulumi (and two runs at once into one stack);
 * - the terminal's environment: the Pulumi CLI of the test harness on PATH, a PULUMI_HOME of the
 *   test's own, no update checks and no plugin downloads. No backend, passphrase or connection
 *   comes from the harness: the README's own commands must set them.
 * Every output must be free of the warnings a user would have to decode.
 */

jest.setTimeout(900_000);

const SECTION = "## Your own program, from an empty folder";

/** Warnings a user would have to decode: npm's, Node's, Pulumi's about `main`. */
const WARNING = /npm warn|EBADENGINE|DEP0\d{3}|DeprecationWarning|Could not find entry point/i;

/** A fresh terminal's environment for the recipe (see above); `work` holds PULUMI_HOME. */
function terminalEnv(work: string): NodeJS.ProcessEnv {
  const found = engine();
  if ("missing" in found) throw new Error(found.missing);
  const env = engineEnv({ binDir: found.binDir, home: join(work, "pulumi-home"), backend: work });
  // Left by an `npm test` that started jest: a fresh terminal has none of them.
  for (const k of Object.keys(env)) if (/^(npm_|INIT_CWD$)/i.test(k)) delete env[k];
  delete env.PULUMI_BACKEND_URL;
  delete env.PULUMI_CONFIG_PASSPHRASE;
  return env;
}

/** The changes this test makes to a README command (see above), each counted once it is used. */
function forTheTest(
  line: string,
  at: { tgz: string; backend: string; emu?: SpawnedEmulator },
  used: Set<string>,
) {
  const swap = (what: string, from: RegExp, to: string) => {
    if (!from.test(line)) return;
    used.add(what);
    line = line.replace(from, to);
  };
  swap("tarball", /^npm install pulumi-hosting /, `npm install ${at.tgz} `);
  swap("port", /^(npx hosting-emulator .*)--port 8080\b/, "$1--port 0");
  swap("backend", /^pulumi login --local\b/, `pulumi login file://${at.backend}`);
  const emu = at.emu;
  if (emu) {
    swap("url", /^export HOSTING_API_URL=\S+/, `export HOSTING_API_URL=${emu.url}`);
    swap("token", /^export HOSTING_TOKEN=(<[^>]*>|\S+)/, `export HOSTING_TOKEN=${emu.token}`);
  }
  return line;
}

describeEngine("the README's own program, followed literally from an empty folder", () => {
  let tgz: string;
  beforeAll(async () => {
    tgz = await packedTarball();
  }, 240_000);

  test("no warning; preview makes nothing, up makes the app, destroy and stack rm leave nothing", async () => {
    const blocks = codeBlocks(readmeSection(SECTION));
    const base = mkdtempSync(join(tmpdir(), "readme-own-"));
    const empty = join(base, "start");
    const backend = join(base, "backend");
    mkdirSync(empty);
    mkdirSync(backend);
    const stackFile = join(backend, ".pulumi", "stacks", "shop", "dev.json");
    const shell = new ShellSession(empty, terminalEnv(base));
    const used = new Set<string>();
    const runs: ShellRun[] = [];
    const checked: string[] = [];
    let emu: SpawnedEmulator | undefined;

    const api = async (path: string) =>
      (
        await fetch(`${emu!.url}${path}`, { headers: { authorization: `Bearer ${emu!.token}` } })
      ).json() as Promise<unknown>;
    const appNames = async () =>
      ((await api("/apps")) as Array<{ app: { name: string; subdomain: string } }>).map(
        (a) => a.app,
      );
    /** Requests other than GET the emulator answered so far, per route. */
    const changing = async () =>
      Object.entries(
        ((await api("/__emulator/stats")) as { requests: Record<string, number> }).requests,
      ).filter(([route]) => !route.startsWith("GET "));

    /** What the user would check after `command`: the server's side of each pulumi step. */
    const afterwards = async (command: string, run: ShellRun) => {
      if (command.startsWith("pulumi preview")) {
        checked.push("preview");
        expect(await appNames()).toEqual([]);
        expect(await changing()).toEqual([]);
      } else if (command.startsWith("pulumi up")) {
        checked.push("up");
        const apps = await appNames();
        expect(apps.map((a) => a.name)).toEqual(["shop-web"]);
        // The output the program exports: the subdomain the service assigned.
        expect(run.stdout).toContain(`subdomain: "${apps[0].subdomain}"`);
        // The stack is in the backend `pulumi login` named.
        expect(existsSync(stackFile)).toBe(true);
      } else if (command.startsWith("pulumi destroy")) {
        checked.push("destroy");
        expect(await appNames()).toEqual([]);
        expect(existsSync(stackFile)).toBe(false);
      }
    };

    try {
      for (const block of blocks) {
        if (block.file) {
          writeFileSync(join(shell.cwd, block.file), block.body);
          continue;
        }
        expect(block.lang).toBe("sh");
        const lines = block.body.split("\n").filter((l) => l.trim() && !l.trim().startsWith("#"));
        for (const line of lines) {
          expect(line.endsWith("\\")).toBe(false); // one command a line
          const command = forTheTest(line, { tgz, backend, emu }, used);
          if (command.startsWith("npx hosting-emulator ")) {
            const server = shell.start(command);
            emu = await emulatorOf(server.child, server.stop);
            continue;
          }
          const run = await shell.run(command);
          runs.push(run);
          if (run.code !== 0) {
            throw new Error(
              `"${command}" exited ${run.code ?? run.signal}:\n${run.stdout}\n${run.stderr}`,
            );
          }
          await afterwards(command, run);
        }
      }
      // Each change the test makes was made (the README still has those commands), and each
      // pulumi step was reached and checked, in the README's order.
      expect([...used].sort()).toEqual(["backend", "port", "tarball", "token", "url"]);
      expect(checked).toEqual(["preview", "up", "destroy"]);
      // Everything the recipe made is in the one folder it made.
      expect(readdirSync(empty)).toEqual(["shop"]);
      const printed = [
        ...runs.map((r) => ({ command: r.command, text: `${r.stdout}\n${r.stderr}` })),
        { command: "npx hosting-emulator", text: `${emu?.stdout()}\n${emu?.stderr()}` },
      ];
      const warnings = printed.flatMap(({ command, text }) =>
        text
          .split("\n")
          .filter((l) => WARNING.test(l))
          .map((l) => `${command}: ${l}`),
      );
      expect(warnings).toEqual([]);
    } finally {
      await emu?.stop();
    }
  });
});
