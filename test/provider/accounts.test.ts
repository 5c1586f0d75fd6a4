import type { RunningEmulator } from "../../src/emulator";
import { useEmulators } from "../helpers/emulator";
import { InProcessProvider } from "../helpers/in-process-provider";
import { TestClock } from "../helpers/test-clock";
import { appSource } from "../helpers/provider-env";
import { serializedProvider, urnOf } from "../helpers/serialize";

const emulators = useEmulators();

/*
 * Named accounts through the handlers, called in-process as Pulumi's dynamic-provider host calls
 * them: what check says about a bad `account`, how diff treats a
 * changed one, and the two ways the engine may hand `hosting:accounts` over (object or JSON).
 */

const SIG = "4dabf18193072939515e22adb298388d";
const SECRET = "1b47061264138c4ac30d75fd1eb44270";

describe("the account input, as Pulumi's dynamic-provider host passes it", () => {
  let emu: RunningEmulator;
  let host: InProcessProvider;
  let alice: string;
  let bob: string;
  const web = (props: Record<string, unknown>) =>
    serializedProvider("AppWebAccess").then((p) => ({ __provider: p, ...props }));
  const urn = urnOf("AppWebAccess", "w");

  beforeAll(async () => {
    emu = await emulators.start({ seed: "accounts-host", setupDelayMs: 0 });
    alice = emu.issueToken("alice");
    bob = emu.issueToken("bob");
    // `team` comes from the environment only; `shared` and `other` from config (as an object).
    host = await InProcessProvider.start(
      { HOSTING_TEAM_TOKEN: bob, HOSTING_TEAM_API_URL: emu.url },
      TestClock.virtual(),
    );
    await host.configure({
      "hosting:apiUrl": emu.url,
      "hosting:token": alice,
      // `other`'s token as a secret leaf still in Pulumi's wire wrapper.
      "hosting:accounts": {
        shared: { token: bob },
        other: { apiUrl: emu.url, token: { [SIG]: SECRET, value: alice } },
      },
    });
  });
  afterAll(async () => {
    await host?.stop();
  });

  test("a malformed account name fails check with the rule, naming the property account", async () => {
    const r = await host.check(
      urn,
      {},
      await web({ appId: "a", enabled: true, account: "no such" }),
    );
    // The engine prints the value beside the property: harmless for a name like this one (a
    // token-like value gets no property: config-check.test.ts).
    expect(r.failures).toEqual([
      { property: "account", reason: expect.stringMatching(/^account must be 1-63 letters/) },
    ]);
    expect(r.failures[0].reason).not.toContain("no such");
  });

  test("an unconfigured account fails check naming both ways to configure it, and no token", async () => {
    const r = await host.check(urn, {}, await web({ appId: "a", enabled: true, account: "nope" }));
    expect(r.failures).toHaveLength(1);
    expect(r.failures[0].property).toBe("account");
    expect(r.failures[0].reason).toContain(
      "`pulumi config set --secret --path hosting:accounts.nope.token <token>`",
    );
    expect(r.failures[0].reason).toContain("HOSTING_NOPE_TOKEN");
    expect(r.failures[0].reason).toContain("accounts in hosting:accounts: other, shared");
    for (const t of [alice, bob]) expect(r.failures[0].reason).not.toContain(t);
  });

  test("configured accounts (config object or environment) pass check and keep the name", async () => {
    for (const account of ["shared", "team", "other"]) {
      const r = await host.check(urn, {}, await web({ appId: "a", enabled: true, account }));
      expect(r.failures).toEqual([]);
      expect(r.inputs.account).toBe(account);
    }
  });

  test("changing account replaces, unless both names hold the same URL and token", async () => {
    const olds = await web({ appId: "a", enabled: true, account: "shared" });
    const to = async (account?: string) =>
      host.diff(
        "a",
        urn,
        olds,
        await web({ appId: "a", enabled: true, ...(account ? { account } : {}) }),
      );
    // shared and team are both bob at this URL: a rename, recorded in place.
    expect(await to("team")).toMatchObject({ changes: true, replaces: [] });
    // other is alice, and so is the default: the object would change hands.
    expect(await to("other")).toMatchObject({ changes: true, replaces: ["account"] });
    expect(await to(undefined)).toMatchObject({ changes: true, replaces: ["account"] });
    expect(await to("shared")).toMatchObject({ changes: false, replaces: [] });
    // other (its token a wrapped secret leaf) is the default's URL and token: in place.
    const fromOther = await web({ appId: "a", enabled: true, account: "other" });
    const back = await host.diff("a", urn, fromOther, await web({ appId: "a", enabled: true }));
    expect(back).toMatchObject({ changes: true, replaces: [] });
  });

  test("create, read and delete act as the resource's account", async () => {
    const before = emu.world.apps.length;
    const appUrn = urnOf("App", "b");
    const inputs = {
      __provider: await serializedProvider("App"),
      source: await appSource(),
      name: "bobs",
      account: "team",
    };
    const checked = await host.check(appUrn, {}, inputs);
    const created = await host.create(appUrn, checked.inputs);
    expect(emu.world.apps).toHaveLength(before + 1);
    const app = emu.world.apps.find((a) => a.id === created.id)!;
    expect(emu.users.find((u) => u.id === app.user_id)!.name).toBe("bob");
    const read = await host.read(created.id, appUrn, created.properties);
    // Found with the account's token (another user's app would be gone); the account stays.
    expect(read.id).toBe(created.id);
    expect(read.properties.account).toBe("team");
    await host.delete(created.id, appUrn, created.properties);
    expect(emu.world.apps.some((a) => a.id === created.id)).toBe(false);
  });
  test("an action resource acts as its account: VmStart with account team starts bob's VM", async () => {
    const vm = emu.world.vms.find((v) => v.name === "bob-vm")!;
    const vmUrn = urnOf("VmStart", "s");
    const inputs = {
      __provider: await serializedProvider("VmStart"),
      vmId: vm.id,
      account: "team",
    };
    const checked = await host.check(vmUrn, {}, inputs);
    expect(checked.failures).toEqual([]);
    await host.create(vmUrn, checked.inputs);
    expect(vm.running).toBe(true);
  });
});

describe("hosting:accounts as JSON text", () => {
  test("is read the same as an object; a non-object is a clear error", async () => {
    const emu = await emulators.start({ seed: "accounts-json" });
    const host = await InProcessProvider.start({}, TestClock.virtual());
    try {
      await host.configure({
        "hosting:accounts": JSON.stringify({
          shared: { apiUrl: emu.url, token: emu.issueToken() },
        }),
      });
      const ok = await host.check(
        urnOf("AppWebAccess", "j"),
        {},
        {
          __provider: await serializedProvider("AppWebAccess"),
          appId: "a",
          enabled: true,
          account: "shared",
        },
      );
      expect(ok.failures).toEqual([]);
    } finally {
      await host.stop();
    }
    const bad = await InProcessProvider.start({}, TestClock.virtual());
    try {
      await bad.configure({ "hosting:accounts": "[1]" });
      const r = await bad.check(
        urnOf("AppWebAccess", "j"),
        {},
        {
          __provider: await serializedProvider("AppWebAccess"),
          appId: "a",
          enabled: true,
          account: "shared",
        },
      );
      expect(r.failures[0]).toEqual({
        property: "account",
        reason: expect.stringContaining("hosting:accounts must be an object of named accounts"),
      });
      expect(r.failures).toHaveLength(1); // the stack-wide problem is not said twice
    } finally {
      await bad.stop();
      await emu.stop();
    }
  });
});
