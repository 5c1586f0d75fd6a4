import type { RunningEmulator } from "../../src/emulator";
import { useEmulators } from "../helpers/emulator";
import { InProcessProvider } from "../helpers/in-process-provider";
import { TestClock } from "../helpers/test-clock";
import { appSource } from "../helpers/provider-env";
import { serializedProvider, urnOf } from "../helpers/serialize";

/*
 * Whose app it is, through the handlers as Pulumi's dynamic-provider host calls them: every
 * resource records the account it was made under (a digest), a rotated token of that account
 * changes nothing, another account's token replaces, and an object of one account is never
 * declared gone because another account cannot find it.
 */

let emu: RunningEmulator;
const emulators = useEmulators();
/** Provider hosts by who they act for. */
let alice: InProcessProvider;
let aliceRotated: InProcessProvider;
let bob: InProcessProvider;
let bobKeepingAlice: InProcessProvider;
beforeAll(async () => {
  emu = await emulators.start({ seed: "whose-app", setupDelayMs: 0 });
  alice = await hostWith({ "hosting:token": emu.issueToken("alice") });
  // A new token of alice's (another iat and exp): the same subject, the same account.
  aliceRotated = await hostWith({
    "hosting:token": emu.issueToken("alice", { expiresInSeconds: 60 }),
  });
  bob = await hostWith({ "hosting:token": emu.issueToken("bob") });
  bobKeepingAlice = await hostWith({
    "hosting:token": emu.issueToken("bob"),
    "hosting:accounts": { previous: { token: emu.issueToken("alice") } },
  });
});
afterAll(async () => {
  for (const h of [alice, aliceRotated, bob, bobKeepingAlice]) await h?.stop();
});

const appUrn = urnOf("App", "web");
const appsOf = (user: string) =>
  emu.world.apps.filter((a) => emu.users.find((u) => u.id === a.user_id)?.name === user);

/** A provider host configured with `config` over the emulator's URL. */
async function hostWith(config: Record<string, unknown>): Promise<InProcessProvider> {
  // Every read sees the service as it is now (an app deleted behind the provider's back).
  const host = await InProcessProvider.start({ HOSTING_LIST_CACHE_MS: "0" }, TestClock.virtual());
  await host.configure({ "hosting:apiUrl": emu.url, ...config });
  return host;
}

/** An App made by a host with alice's token: its state as the engine keeps it. */
async function aliceApp(name: string) {
  const inputs = {
    __provider: await serializedProvider("App"),
    source: await appSource(),
    name,
  };
  const checked = await alice.check(appUrn, {}, inputs);
  const made = await alice.create(appUrn, checked.inputs);
  return { id: made.id, state: made.properties, inputs: checked.inputs };
}

test("create records the account (a digest, never the token) and the service", async () => {
  const token = emu.issueToken("alice");
  const { state } = await aliceApp("owner-recorded");
  expect(state.__owner).toEqual({
    account: expect.stringMatching(/^sub-[0-9a-f]{24}$/),
    service: expect.stringContaining(emu.url.replace(/\/$/, "")),
  });
  expect(JSON.stringify(state)).not.toContain(token.split(".")[1]);
});

test("a rotated token of the same account changes nothing; another account's replaces", async () => {
  const { id, state, inputs } = await aliceApp("rotation");
  // A new token of alice's (another iat): the same subject, the same account.
  const rotated = await hostWith({
    "hosting:token": emu.issueToken("alice", { expiresInSeconds: 60 }),
  });
  const bobs = await hostWith({ "hosting:token": emu.issueToken("bob") });
  try {
    expect(await rotated.diff(id, appUrn, state, inputs)).toMatchObject({
      changes: false,
      replaces: [],
    });
    expect(await bobs.diff(id, appUrn, state, inputs)).toMatchObject({
      changes: true,
      replaces: ["account"],
    });
    // The rotated token reaches the app as before.
    expect((await rotated.read(id, appUrn, state)).id).toBe(id);
  } finally {
    await rotated.stop();
    await bobs.stop();
  }
});

test("another account's 404 is not 'gone': refresh and delete stop, naming both accounts", async () => {
  const { id, state } = await aliceApp("not-gone");
  const bobs = await hostWith({ "hosting:token": emu.issueToken("bob") });
  try {
    await expect(bobs.read(id, appUrn, state)).rejects.toThrow(
      /was made under account [0-9a-f]{12} on .*now reaches the service as account [0-9a-f]{12}.*does not mean it is gone/,
    );
    await expect(bobs.delete(id, appUrn, state)).rejects.toThrow("hosting:accounts.previous.token");
    // Still alice's, still running.
    expect(appsOf("alice").some((a) => a.id === id)).toBe(true);
  } finally {
    await bobs.stop();
  }
});

test("with the old account's token configured under any name, its objects are reached with it", async () => {
  const { id, state } = await aliceApp("reached");
  expect((await bobKeepingAlice.read(id, appUrn, state)).id).toBe(id);
  await bobKeepingAlice.delete(id, appUrn, state);
  expect(emu.world.apps.some((a) => a.id === id)).toBe(false);
});

test("an app the resource's own account cannot find is gone, as before", async () => {
  const { id, state } = await aliceApp("deleted-behind");
  emu.world.apps.splice(
    emu.world.apps.findIndex((a) => a.id === id),
    1,
  );
  // No id: Pulumi drops it from the stack; the delete is done.
  expect((await alice.read(id, appUrn, state)).id).toBeFalsy();
  await alice.delete(id, appUrn, state);
});

test("a state of an earlier release (no owner recorded) keeps today's rules", async () => {
  const { id, state } = await aliceApp("legacy");
  const { __owner: _, ...legacy } = state;
  // Nothing recorded: no move can be seen, and none is invented.
  expect((await bob.diff(id, appUrn, legacy, { ...legacy })).replaces).toEqual([]);
  // A refresh keeps the state as it was (the golden upgrade states hold it to that)...
  const read = await alice.read(id, appUrn, legacy);
  expect(read.id).toBe(id);
  expect(read.properties.__owner).toBeUndefined();
  // ...and the next update records the account it was made under from then on.
  const updated = await alice.update(id, appUrn, legacy, { ...legacy, env: { A: "1" } });
  expect(updated.__owner).toEqual(state.__owner);
});
