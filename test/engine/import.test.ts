import { join } from "node:path";
import type { RunningEmulator } from "../../src/emulator";
import { useEmulators } from "../helpers/emulator";
import { describeEngine, ok, opsByName, projectFrom, PulumiStack } from "../helpers/engine";

/*
 * Taking over an app that already exists, through the real CLI: what Pulumi's own import does
 * with a dynamic resource (upstream, it cannot: pulumi/pulumi#16175), and `adoptId`, this
 * package's way, which does.
 */

jest.setTimeout(240_000);

const FIXTURE = join(__dirname, "fixtures", "adopt");
const URN = "urn:pulumi:dev::adopt::pulumi-nodejs:dynamic/hosting:App::web";
const said = (r: { stdout: string; stderr: string }) => `${r.stdout}\n${r.stderr}`;

describeEngine("taking over an existing app, through the Pulumi CLI", () => {
  let emu: RunningEmulator;
  const emulators = useEmulators();
  let stack: PulumiStack;
  let existing: string;

  beforeAll(async () => {
    emu = await emulators.start({ seed: "engine-import", setupDelayMs: 0 });
    stack = new PulumiStack({ dir: projectFrom(FIXTURE), project: "adopt" });
    await stack.init({
      config: { "hosting:apiUrl": emu.url },
      secrets: { "hosting:token": emu.issueToken() },
    });
    // An app the stack does not hold: made by an up, then let go of with `pulumi state delete`.
    ok(await stack.up());
    existing = (await stack.outputs()).appId as string;
    await stack.ok(["state", "delete", URN, "--yes"]);
    expect(await stack.resources()).toEqual([]);
    expect(emu.world.apps.map((a) => a.id)).toEqual([existing]);
  });

  test("`pulumi import` of a dynamic resource fails (upstream #16175) and changes nothing", async () => {
    const r = await stack.pulumi([
      "import",
      "pulumi-nodejs:dynamic/hosting:App",
      "web",
      existing,
      "--yes",
      "--non-interactive",
      "--generate-code=false",
    ]);
    expect(r.code).not.toBe(0);
    expect(said(r)).toMatch(/__provider|provider/i);
    expect(await stack.resources()).toEqual([]);
    expect(emu.world.apps.map((a) => a.id)).toEqual([existing]);
  });

  test("the `import` resource option fails the same way, and no app is made", async () => {
    await stack.setConfig({ "adopt:mode": "import", "adopt:appId": existing });
    const r = await stack.up();
    expect(r.code).not.toBe(0);
    expect(await stack.resources()).toEqual([]);
    expect(emu.world.apps.map((a) => a.id)).toEqual([existing]);
  });

  test("adoptId takes the app over: no upload, no new app; a second preview is clean", async () => {
    await stack.setConfig({ "adopt:mode": "adopt", "adopt:appId": existing });
    const r = ok(await stack.up());
    expect(opsByName(r).web).toBe("create");
    expect((await stack.resources()).map((x) => x.id)).toEqual([existing]);
    expect(emu.world.apps.map((a) => a.id)).toEqual([existing]);
    ok(await stack.preview(["--expect-no-changes"]));
    ok(await stack.destroy());
    expect(emu.world.apps).toEqual([]);
  });
});
