import { join } from "node:path";
import type { RunningEmulator } from "../../src/emulator";
import { appIdsOf, useEmulators } from "../helpers/emulator";
import { describeEngine, ok, opsByName, projectFrom, PulumiStack } from "../helpers/engine";

/*
 * Whose app it is, through the real CLI against the emulator: a token rotated, a token of
 * another account in `hosting:token`, and stacks of one program side by side. Counted at the
 * emulator: the apps of each user against the ids in state.
 */

jest.setTimeout(480_000);

const FIXTURE = join(__dirname, "fixtures", "whose-app");

let emu: RunningEmulator;
const emulators = useEmulators();
beforeAll(async () => {
  emu = await emulators.start({ seed: "engine-whose-app", setupDelayMs: 0 });
});

const appsOf = (user: string) => appIdsOf(emu, user);

function stack(name: string, dir = projectFrom(FIXTURE)): PulumiStack {
  return new PulumiStack({
    dir,
    project: "whose",
    stack: name,
    env: { HOSTING_LIST_CACHE_MS: "0" },
  });
}

describeEngine("whose app it is, through the Pulumi CLI", () => {
  test("a rotated token changes nothing; another account's token replaces, and the old app is never left behind", async () => {
    const dev = stack("dev");
    await dev.init({
      config: { "hosting:apiUrl": emu.url },
      secrets: { "hosting:token": emu.issueToken("alice") },
    });
    ok(await dev.up());
    const [first] = appsOf("alice");
    expect((await dev.outputs()).appId).toBe(first);

    // A new token of alice's: the same account.
    await dev.setConfig(
      {},
      { "hosting:token": emu.issueToken("alice", { expiresInSeconds: 3600 }) },
    );
    const rotated = ok(await dev.preview());
    expect(Object.values(opsByName(rotated))).toEqual(["same", "same"]);

    // Bob's token: every resource moves, shown before anything happens.
    await dev.setConfig({}, { "hosting:token": emu.issueToken("bob") });
    const moving = ok(await dev.preview());
    expect(opsByName(moving)).toEqual({ web: "replace", "web-access": "replace" });
    expect(moving.stdout).toContain("needs a connection of the old account");

    // Without alice's token, the new app is made under bob, and the old one is not dropped.
    const stuck = await dev.up();
    expect(stuck.ok).toBe(false);
    expect(stuck.stdout + stuck.stderr).toMatch(/was made under account [0-9a-f]{12}/);
    expect(appsOf("alice")).toEqual([first]);
    expect(appsOf("bob")).toHaveLength(1);
    const held = JSON.stringify((await dev.exportState()).deployment);
    expect(held).toContain(first);

    // With alice's token kept under any name, the old app is deleted through it.
    await dev.setConfig(
      {},
      { "hosting:accounts": JSON.stringify({ previous: { token: emu.issueToken("alice") } }) },
    );
    ok(await dev.up());
    expect(appsOf("alice")).toEqual([]);
    expect(appsOf("bob")).toEqual([(await dev.outputs()).appId]);
    ok(await dev.destroy());
    expect(appsOf("bob")).toEqual([]);
  });

  test("stacks of one program, named apps or not, deploy and destroy side by side", async () => {
    const token = emu.issueToken("alice");
    const config = { "hosting:apiUrl": emu.url };
    for (const chosen of [undefined, "shop-web"]) {
      // Three stacks unnamed; with a chosen name, two suffice to share it.
      const stacks = (chosen ? ["pr-10", "pr-1"] : ["pr-10", "pr-1", "pr-2"]).map((n) => stack(n));
      for (const s of stacks) {
        await s.init({
          config: { ...config, ...(chosen ? { "whose:name": chosen } : {}) },
          secrets: { "hosting:token": token },
        });
        ok(await s.up());
      }
      const ids = await Promise.all(stacks.map(async (s) => (await s.outputs()).appId as string));
      const names = await Promise.all(
        stacks.map(async (s) => (await s.outputs()).appName as string),
      );
      expect(new Set(ids).size).toBe(stacks.length);
      expect(appsOf("alice").sort()).toEqual([...ids].sort());
      if (chosen) expect(new Set(names)).toEqual(new Set([chosen]));
      // Unnamed: each stack's app is named after the resource, apart from the others'.
      else for (const n of names) expect(n).toMatch(/^web-[0-9a-f]{7}$/);
      if (!chosen) expect(new Set(names).size).toBe(stacks.length);
      // pr-1 closes: the others' apps stay.
      ok(await stacks[1].destroy());
      const others = stacks.filter((_, i) => i !== 1);
      expect(appsOf("alice").sort()).toEqual(ids.filter((_, i) => i !== 1).sort());
      for (const s of others) ok(await s.destroy());
      expect(appsOf("alice")).toEqual([]);
    }
  });
});
