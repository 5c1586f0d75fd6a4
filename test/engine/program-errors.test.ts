import { copyFile } from "node:fs/promises";
import { join } from "node:path";
import type { RunningEmulator } from "../../src/emulator";
import { useEmulators } from "../helpers/emulator";
import { makeZip } from "../helpers/zip";
import { describeEngine, projectFrom, PulumiStack } from "../helpers/engine";
import type { EngineRun } from "../helpers/pulumi";

/*
 * Mistakes made while writing a program, as `pulumi preview` shows them through the real CLI:
 * each one error under Diagnostics, one line with its fix, no stack frames, no colour codes,
 * the run failed and nothing sent to the service. Those the program finds while it builds the
 * resources (a source that does not exist, two CustomDomains on one app) are printed by Pulumi's
 * program runtime; a misspelt config key and an entrypoint that is not in the source are check
 * failures of the App.
 */

jest.setTimeout(300_000);

const MISTAKES = join(__dirname, "fixtures", "mistakes");

/** What the CLI printed under "Diagnostics:" (up to the resource summary). */
function diagnosticsOf(r: EngineRun): string {
  const at = r.stdout.indexOf("Diagnostics:\n");
  expect(at).toBeGreaterThan(-1);
  const end = r.stdout.indexOf("\n\nResources:", at);
  return r.stdout.slice(at, end < 0 ? undefined : end);
}

/** The run failed with exactly `message` as its one error, said as a user reads it. */
function expectOneLine(r: EngineRun, where: string, message: string) {
  expect(r.ok).toBe(false);
  expect(r.code).not.toBe(0);
  expect(diagnosticsOf(r)).toBe(`Diagnostics:\n  ${where}:\n    error: ${message}`);
  expect(r.diagnostics.filter((d) => d.severity === "error").map((d) => d.message)).toEqual([
    `${message}\n`,
  ]);
  const said = `${r.stdout}\n${r.stderr}`;
  expect(said).not.toMatch(/^\s+at /m); // no stack frame
  expect(said).not.toMatch(/\[\d+m/); // no colour code, with or without its escape character
}

describeEngine("mistakes in a program, through the Pulumi CLI", () => {
  let emu: RunningEmulator;
  const emulators = useEmulators();
  beforeAll(async () => {
    emu = await emulators.start({ seed: "engine-mistakes", setupDelayMs: 0 });
  });

  /** A stack of the fixture with this `mistake`; the API URL under `urlKey`. */
  async function stackWith(mistake: string, more: Record<string, string> = {}, urlKey?: string) {
    const stack = new PulumiStack({ dir: projectFrom(MISTAKES), project: "hosting-mistakes" });
    return stack.init({
      config: { [urlKey ?? "hosting:apiUrl"]: emu.url, mistake, ...more },
      secrets: { "hosting:token": emu.issueToken() },
    });
  }

  /** Its preview, which must send nothing to the service. */
  async function refused(stack: PulumiStack) {
    emu.resetStats();
    const r = await stack.preview();
    expect(emu.stats().total).toBe(0);
    return r;
  }

  test("a source that does not exist: one line naming the folder it meant", async () => {
    const stack = await stackWith("source");
    expectOneLine(
      await refused(stack),
      "pulumi:pulumi:Stack (hosting-mistakes-dev)",
      `source "${join(stack.dir, "ap")}" does not exist: did you mean "${join(stack.dir, "app")}"?`,
    );
  });

  test("two CustomDomains on one app: one line naming both and the way out", async () => {
    expectOneLine(
      await refused(await stackWith("domains")),
      "pulumi:pulumi:Stack (hosting-mistakes-dev)",
      'CustomDomain "shop": its appId is the app of CustomDomain "www" too; an app takes one ' +
        "custom domain: keep one CustomDomain per App (give the other domain its own App), or " +
        "redirect the extra hostname at your DNS or CDN",
    );
  });

  test("a misspelt hosting:apiUrl: said once, as the misspelling with its fix", async () => {
    expectOneLine(
      await refused(await stackWith("config", {}, "hosting:apiurl")),
      "pulumi-nodejs:dynamic/hosting:App (web)",
      "pulumi-nodejs:dynamic/hosting:App resource 'web' has a problem: hosting:apiurl is not a " +
        "pulumi-hosting setting: did you mean hosting:apiUrl? (rename it with `pulumi config rm` " +
        "and `pulumi config set`)",
    );
  });

  test.each([
    ["folder", "app"],
    [".zip", "app.zip"],
  ])(
    "an entrypoint missing from a %s source fails the preview, naming the nearest file",
    async (_kind, source) => {
      const stack = await stackWith("entrypoint", { source });
      if (source.endsWith(".zip")) {
        const zip = await makeZip({ "src/server.js": "server\n", "package.json": "{}\n" });
        await copyFile(zip, join(stack.dir, source));
      }
      expectOneLine(
        await refused(stack),
        "pulumi-nodejs:dynamic/hosting:App (web)",
        "pulumi-nodejs:dynamic/hosting:App resource 'web': property entrypoint value " +
          `{src/sever.js} has a problem: entrypoint "src/sever.js" is not a file of source ` +
          `"${join(stack.dir, source)}": did you mean "src/server.js"?`,
      );
    },
  );
});
