import { providerHandlers } from "../../src";
import { setClock } from "../../src/provider/clock";
import type { RunningEmulator } from "../../src/emulator";
import { useEmulators } from "../helpers/emulator";
import { appSource } from "../helpers/provider-env";
import { TestClock } from "../helpers/test-clock";

/*
 * The errors of the shared lifecycle plumbing, with the App's handlers called in this process on
 * a virtual clock and compared by their fields: a delete is done when the object is already gone
 * and fails on any other refusal; a create whose object exists but did not finish is "created
 * but failed to initialise", carrying what keeps the object in the stack.
 */

/** A failed build's log: several lines, a token-shaped string a build echoed, then noise. */
const ECHOED = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJidWlsZCJ9.c2lnbmF0dXJlLXBhcnQ";
const BUILD_ERROR =
  `npm ERR! missing script: start\nnpm ERR!   Authorization: Bearer ${ECHOED}\n` + "x".repeat(2000);

const clock = TestClock.virtual();
const app = providerHandlers("App");
let emu: RunningEmulator;
const emulators = useEmulators();

beforeAll(async () => {
  setClock(clock);
  // Setups take an hour: a create with a short setupTimeoutSeconds gives up waiting.
  emu = await emulators.start({
    seed: "lifecycle",
    setupDelayMs: 3_600_000,
    now: clock.now,
    setupErrors: { broken: BUILD_ERROR },
  });
  const config: Record<string, string> = {
    "hosting:apiUrl": emu.url,
    "hosting:token": emu.issueToken(),
  };
  await app.configure!({ config: { get: (k: string) => config[k] } } as never);
});
afterAll(async () => {
  setClock();
});
afterEach(() => emu.setFaults({}));

/** Creates an app that gives up waiting for its setup; returns the error that carries it. */
async function createUnfinished(name: string) {
  const checked = await app.check!({}, { source: await appSource(), name, setupTimeoutSeconds: 1 });
  expect(checked.failures).toEqual([]);
  // The engine sends the `__provider` text with the checked inputs.
  const inputs = { ...checked.inputs, __provider: "provider text" };
  return (await app.create!(inputs).catch((e: unknown) => e)) as Error & Record<string, unknown>;
}

test("a create past its setup timeout is 'created but failed to initialise', naming the app", async () => {
  const err = await createUnfinished("slow");
  const [made] = emu.world.apps.filter((a) => a.name === "slow");
  expect(err.name).toBe("ResourceInitError");
  expect(err.id).toBe(made.id);
  expect(err.message).toBe(
    `app ${made.id} was created but its setup did not finish within 1 s; it is kept in the ` +
      "stack: run `pulumi up` again to wait more, or raise setupTimeoutSeconds",
  );
  expect(err.reasons).toEqual(["setup did not complete"]);
  // Nothing failed but time: no cause (not even an undefined one).
  expect(Object.hasOwn(err, "cause")).toBe(false);
  // The state Pulumi keeps holds the `__provider` text a later delete needs.
  expect(err.properties).toMatchObject({ name: "slow", setup: false, __provider: "provider text" });
});

test("a setup wait that fails after the create keeps the app and carries the failure as its cause", async () => {
  // The list before the POST passes; the setup wait's list is refused.
  emu.setFaults({ rules: [{ route: "GET /apps", status: 403, after: 1, times: 1 }] });
  const err = await createUnfinished("refused-wait");
  const [made] = emu.world.apps.filter((a) => a.name === "refused-wait");
  expect(err.name).toBe("ResourceInitError");
  expect(err.id).toBe(made.id);
  expect(err.cause).toMatchObject({ status: 403, code: "HOSTING_FORBIDDEN" });
  expect(err.reasons).toEqual([(err.cause as Error).message]);
});

test("the next `pulumi up` waits again for an app kept before its setup finished (the engine's update of a resource with init errors)", async () => {
  const err = await createUnfinished("later");
  const props = err.properties as Record<string, unknown>;
  // Still not set up: the update fails the same way and the app stays where it was.
  const again = (await app.update!(err.id as string, props, props).catch(
    (e: unknown) => e,
  )) as Error & Record<string, unknown>;
  expect(again).toMatchObject({ name: "ResourceInitError", id: err.id });
  expect(again.properties).toMatchObject({ setup: false });
  // An hour later its setup is done: the update sees it, and nothing new is made.
  await clock.advance(3_600_000);
  const done = await app.update!(err.id as string, props, props);
  expect(done.outs).toMatchObject({ setup: true, name: "later" });
  expect(emu.world.apps.filter((a) => a.name === "later")).toHaveLength(1);
});

describe("delete", () => {
  test("an app already gone is deleted: nothing to do, no error", async () => {
    const { id, properties } = await createUnfinished("gone");
    emu.world.apps = emu.world.apps.filter((a) => a.id !== id);
    await expect(app.delete!(id as string, properties as never)).resolves.toBeUndefined();
  });

  test.each([
    [403, "HOSTING_FORBIDDEN"],
    [409, "HOSTING_CONFLICT"],
  ])("a delete refused with %s fails and the app stays in the stack", async (status, code) => {
    const { id, properties } = await createUnfinished(`kept-${status}`);
    emu.setFaults({ rules: [{ route: "DELETE /apps/{app_id}", status, times: 1 }] });
    const err = (await app.delete!(id as string, properties as never).catch((e: unknown) => e)) as
      (Error & Record<string, unknown>) | undefined;
    expect(err).toMatchObject({ status, code });
    expect(emu.world.apps.map((a) => a.id)).toContain(id);
  });
});

test("a setup that never finishes says why: the newest deployment's error, scrubbed and cut", async () => {
  const err = await createUnfinished("broken");
  const [made] = emu.world.apps.filter((a) => a.name === "broken");
  expect(err.name).toBe("ResourceInitError");
  expect(err.id).toBe(made.id);
  const message = err.message as string;
  expect(message).toContain(
    'its newest deployment failed: "npm ERR! missing script: start npm ERR! Authorization: Bearer [redacted] xxx',
  );
  expect(message).toContain("fix that in the source and run `pulumi up`");
  expect(message).not.toContain(ECHOED.split(".")[0]);
  expect(message).not.toContain("\n");
  // Cut to a readable length: the 2,000 characters of noise are not all quoted.
  expect(message.length).toBeLessThan(1000);
  expect(message).toContain('x…"');
  expect(err.reasons).toContain(`deployment error: ${message.split('failed: "')[1].split('"')[0]}`);
});

test("a setup still running (no deployment error) says only that it did not finish", async () => {
  const err = await createUnfinished("slow-again");
  expect(err.message).not.toContain("deployment failed");
  expect(err.reasons).toEqual(["setup did not complete"]);
});
