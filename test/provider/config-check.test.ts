import type { RunningEmulator } from "../../src/emulator";
import { useEmulators } from "../helpers/emulator";
import { InProcessProvider } from "../helpers/in-process-provider";
import { TestClock } from "../helpers/test-clock";
import { serializedProvider, urnOf } from "../helpers/serialize";

/*
 * Config mistakes fail at check, so `pulumi preview` reports them (not only `pulumi up`), for a
 * program that only declares resources. Nothing reaches the service, and no failure holds a
 * value that could be a token.
 */

describe("config mistakes at check (preview)", () => {
  let emu: RunningEmulator;
  const emulators = useEmulators();
  let token: string;
  const hosts: InProcessProvider[] = [];
  const start = async (config: Record<string, unknown>, env: Record<string, string> = {}) => {
    const host = await InProcessProvider.start(env, TestClock.virtual());
    hosts.push(host);
    await host.configure(config);
    return host;
  };
  const checkWeb = async (host: InProcessProvider, extra: Record<string, unknown> = {}) =>
    host.check(
      urnOf("AppWebAccess", "w"),
      {},
      { __provider: await serializedProvider("AppWebAccess"), appId: "a", enabled: true, ...extra },
    );

  beforeAll(async () => {
    emu = await emulators.start({ seed: "config-check" });
    token = emu.issueToken();
  });
  beforeEach(() => emu.resetStats());
  afterEach(() => expect(emu.stats().total).toBe(0));
  afterAll(async () => {
    await Promise.all(hosts.map((h) => h.stop()));
  });

  test("no URL and no token: check fails saying how to set both", async () => {
    const r = await checkWeb(await start({}));
    expect(r.failures).toEqual([
      {
        property: "",
        reason: expect.stringMatching(
          /^hosting:apiUrl is not set: .*HOSTING_API_URL.* hosting:token is not set: set it with `pulumi config set --secret hosting:token <token>`/,
        ),
      },
    ]);
  });

  test("swapped URL and token, a misspelt key and a null account entry: each a failure, no token shown", async () => {
    const host = await start({
      "hosting:apiUrl": token,
      "hosting:token": emu.url,
      "hosting:timeoutSecond": "30",
      "hosting:accounts": { shared: null },
    });
    const r = await checkWeb(host);
    const reasons = r.failures.map((f) => f.reason);
    expect(reasons).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/hosting:apiUrl holds what looks like an API token .* swapped/),
        expect.stringMatching(
          /^hosting:timeoutSecond is not a pulumi-hosting setting: did you mean hosting:timeoutSeconds\?/,
        ),
        expect.stringMatching(
          /^hosting:accounts\.shared must be an object with apiUrl and token, not null/,
        ),
      ]),
    );
    for (const f of r.failures) expect(f.reason).not.toContain(token.slice(0, 20));
    const shared = await checkWeb(host, { account: "shared" });
    expect(shared.failures[0]).toEqual({
      property: "account",
      reason: expect.stringMatching(
        /^account "shared" cannot be used: hosting:accounts\.shared must be an object/,
      ),
    });
    // Said once, by the account's failure, not again among the stack's.
    const saying = shared.failures.filter((f) => f.reason.includes("hosting:accounts.shared must"));
    expect(saying).toHaveLength(1);
  });

  test("a token given as the account name fails without being shown, by us or by the engine", async () => {
    const host = await start({ "hosting:apiUrl": emu.url, "hosting:token": token });
    const r = await checkWeb(host, { account: token });
    expect(r.failures).toEqual([
      { property: "", reason: expect.stringMatching(/^account must be 1-63 letters/) },
    ]);
    expect(r.failures[0].reason).not.toContain(token.slice(0, 20));
  });

  test("configured as it should be, check passes", async () => {
    const r = await checkWeb(await start({ "hosting:apiUrl": emu.url, "hosting:token": token }));
    expect(r.failures).toEqual([]);
  });
});
