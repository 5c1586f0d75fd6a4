import { join } from "node:path";
import type { RunningEmulator } from "../../src/emulator";
import { useEmulators } from "../helpers/emulator";
import { ROOT } from "../helpers/pulumi-parts";
import { describeEngine, ok, opsByName, projectFrom, PulumiStack } from "../helpers/engine";
import { tokenFormsIn } from "../helpers/token-forms";

const emulators = useEmulators();

/*
 * What a user meets when things go wrong, through the real CLI: configuration mistakes at
 * preview (the exact words, nothing sent), and a service that throttles or loses replies during
 * `up` (one `up` suffices; the service ends with exactly the apps the state names).
 */

jest.setTimeout(240_000);

const BASIC = join(ROOT, "examples", "basic");

/** Everything said about a failed run, as the user sees it. */
const said = (r: { stdout: string; stderr: string }) => `${r.stdout}\n${r.stderr}`;

describeEngine("configuration mistakes, through the Pulumi CLI", () => {
  let emu: RunningEmulator;
  beforeAll(async () => {
    emu = await emulators.start({ seed: "engine-config", setupDelayMs: 0 });
  });

  async function basicWith(config: Record<string, string>, secrets: Record<string, string>) {
    const stack = new PulumiStack({ dir: projectFrom(BASIC), project: "hosting-basic" });
    return stack.init({ config, secrets });
  }

  /** A preview with this config fails saying `words`, before any request reaches the service. */
  async function refusedAtPreview(
    config: Record<string, string>,
    secrets: Record<string, string>,
    words: string,
  ) {
    const stack = await basicWith(config, secrets);
    emu.resetStats();
    const r = await stack.preview();
    expect(r.code).not.toBe(0);
    expect(said(r)).toContain(words);
    expect(emu.stats().total).toBe(0);
  }

  test("no token: preview fails naming hosting:token and both ways to set it; nothing is sent", () =>
    refusedAtPreview(
      { "hosting:apiUrl": emu.url },
      {},
      "hosting:token is not set: set it with `pulumi config set --secret hosting:token <token>` or the HOSTING_TOKEN environment variable.",
    ));

  test("a wrong token: preview fails with the service's 401, and the token is not echoed", async () => {
    const other = await emulators.start({ seed: "engine-other-issuer" });
    const foreign = other.issueToken();
    await other.stop();
    const stack = await basicWith({ "hosting:apiUrl": emu.url }, { "hosting:token": foreign });
    const r = await stack.preview();
    expect(r.code).not.toBe(0);
    expect(said(r)).toMatch(/401/);
    expect(tokenFormsIn(said(r), foreign)).toEqual([]);
    expect(tokenFormsIn(JSON.stringify(r.events), foreign)).toEqual([]);
  });

  test("a misspelt key: preview names it and the setting it is nearest to", () =>
    refusedAtPreview(
      { "hosting:apiurl": emu.url },
      { "hosting:token": emu.issueToken() },
      "hosting:apiurl is not a pulumi-hosting setting: did you mean hosting:apiUrl? (rename it with `pulumi config rm` and `pulumi config set`)",
    ));
});

describeEngine("a throttling, reply-losing service during up, through the Pulumi CLI", () => {
  test("one up under a 429 storm and a lost create reply: one app, the one in state", async () => {
    const emu = await emulators.start({ seed: "engine-storm", setupDelayMs: 20 });
    try {
      const stack = new PulumiStack({ dir: projectFrom(BASIC), project: "hosting-basic" });
      await stack.init({
        config: { "hosting:apiUrl": emu.url },
        secrets: { "hosting:token": emu.issueToken() },
      });
      // A storm of 429s on every route, a tight quota, and the first create's reply lost.
      emu.setFaults({
        rateLimit: { requests: 4, windowMs: 1000 },
        rules: [
          { route: "*", status: 429, retryAfterSeconds: 1, times: 6 },
          { route: "POST /apps", commitThenDrop: true, times: 1 },
        ],
      });
      const r = ok(await stack.up());
      expect(opsByName(r).web).toBe("create");
      const stats = emu.stats();
      expect(stats.faults.commitThenDrop).toBe(1);
      expect(stats.faults.status).toBe(6);
      const ids = (await stack.resources())
        .filter((x) => x.type === "pulumi-nodejs:dynamic/hosting:App")
        .map((x) => x.id);
      expect(emu.world.apps.map((a) => a.id)).toEqual(ids);
      emu.setFaults({});
      ok(await stack.destroy());
      expect(emu.world.apps).toEqual([]);
    } finally {
      await emu.stop();
    }
  });
});
