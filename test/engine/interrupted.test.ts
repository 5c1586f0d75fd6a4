import { join } from "node:path";
import type { RunningEmulator } from "../../src/emulator";
import { useEmulators } from "../helpers/emulator";
import { until } from "../helpers/until";
import { describeEngine, ok, projectFrom, PulumiStack } from "../helpers/engine";
import { killGroup } from "../helpers/pulumi";

/*
 * `pulumi up` killed (the CLI and everything it started, as a crashed CI runner would) after the
 * service made the app but before the engine heard of it. Pulumi records the create as pending;
 * the user must end with exactly one app in the service and in the state, and be told how.
 */

jest.setTimeout(240_000);

const FIXTURE = join(__dirname, "fixtures", "one-app");
const APP_URN = "urn:pulumi:dev::crash::pulumi-nodejs:dynamic/hosting:App::web";

async function crashedStack(emu: RunningEmulator) {
  const stack = new PulumiStack({ dir: projectFrom(FIXTURE), project: "crash" });
  await stack.init({
    config: { "hosting:apiUrl": emu.url },
    secrets: { "hosting:token": emu.issueToken() },
  });
  // The app is made at once; its setup takes long enough to kill the run while it waits.
  const r = await stack.up([], {
    onSpawn: (child) => {
      until("the service to make the app", () => emu.world.apps.length === 1, 120_000).then(
        () => killGroup(child),
        () => killGroup(child),
      );
    },
  });
  expect(r.code).not.toBe(0);
  expect(emu.world.apps).toHaveLength(1);
  // The killed CLI left its lock on the stack: what the engine tells the user to do first.
  const locked = await stack.refresh();
  expect(`${locked.stdout}\n${locked.stderr}`).toContain("the stack is currently locked");
  await stack.ok(["cancel", "--yes", "--stack", "dev"]);
  return { stack, made: emu.world.apps[0].id };
}

describeEngine("an up killed mid-create, through the Pulumi CLI", () => {
  let emu: RunningEmulator;
  const emulators = useEmulators();
  beforeEach(async () => {
    emu = await emulators.start({ seed: `engine-crash-${Date.now()}`, setupDelayMs: 4000 });
  });
  afterEach(() => emu?.stop());

  test("the engine keeps the create as pending; refresh --import-pending-creates leaves a dynamic App out", async () => {
    const { stack, made } = await crashedStack(emu);
    const { deployment } = await stack.exportState();
    const pending = (deployment.deployment.pending_operations ?? []) as Array<{
      type: string;
      resource: { urn: string };
    }>;
    expect(pending.map((p) => [p.type, p.resource.urn])).toEqual([["creating", APP_URN]]);

    // What the user runs, with the id the service reported (the emulator's world stands in).
    ok(
      await stack.refresh(["--import-pending-creates", APP_URN, "--import-pending-creates", made]),
    );
    // Upstream: the import's read of a dynamic resource finds nothing, so it is dropped.
    expect(await stack.resources()).toEqual([]);
    expect(emu.world.apps.map((a) => a.id)).toEqual([made]);
    // The way out the provider names: adoptId takes the app in, and nothing is made.
    await stack.setConfig({ "crash:adopt": made });
    ok(await stack.up());
    expect((await stack.resources()).map((r) => r.id)).toEqual([made]);
    expect(emu.world.apps.map((a) => a.id)).toEqual([made]);
    ok(await stack.destroy());
    expect(emu.world.apps).toEqual([]);
  });

  test("up again after clearing the pending create ends with one app, the one in state", async () => {
    const { stack } = await crashedStack(emu);
    ok(await stack.refresh(["--clear-pending-creates"]));
    const again = await stack.up();
    const inState = (await stack.resources()).map((r) => r.id);
    const onService = emu.world.apps.map((a) => a.id);
    // Either the repeated create is answered with the first app (the service honours the
    // create's idempotency key), or it is refused naming the app already made and the ways out.
    if (again.ok) {
      expect(onService).toEqual(inState);
    } else {
      expect(`${again.stdout}\n${again.stderr}`).toContain(onService[0]);
      expect(`${again.stdout}\n${again.stderr}`).toContain("adoptId");
      expect(onService).toHaveLength(1);
    }
  });
});
