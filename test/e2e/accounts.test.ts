import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { RunningEmulator } from "../../src/emulator";
import { useEmulators } from "../helpers/emulator";
import { Deployment, type RunResult } from "../helpers/deployment";
import { ROOT } from "../helpers/pulumi-parts";
import { programDir } from "../helpers/stack-dir";
import { loadState } from "../helpers/state";
import { stepwise } from "../helpers/stepwise";

/*
 * Two emulator users in one program: the default account (alice) and a named account "shared"
 * (bob) from `hosting:accounts`, through Pulumi's program runtime and dynamic-provider host.
 */

describe("named accounts", () => {
  const step = stepwise(60_000);
  let emu: RunningEmulator;
  const emulators = useEmulators();
  let dir: string;
  let aliceToken: string;
  let bobToken: string;
  const ok = (r: RunResult) => {
    if (!r.ok) throw new Error(`deployment failed (${r.code}):\n${r.stderr}\n${r.stdout}`);
    return r;
  };
  const appsOf = (user: string) =>
    emu.world.apps.filter((a) => a.user_id === emu.users.find((u) => u.name === user)!.id);
  const stack = (accounts: unknown, extra: Record<string, string> = {}) =>
    new Deployment({
      programDir: dir,
      providerCwd: dir,
      stateFile: join(dir, "state.json"),
      project: "accounts",
      config: {
        "hosting:apiUrl": emu.url,
        "hosting:token": aliceToken,
        "hosting:accounts": JSON.stringify(accounts),
        ...extra,
      },
      secretConfigKeys: ["hosting:token", "hosting:accounts"],
    });

  beforeAll(async () => {
    emu = await emulators.start({ seed: "accounts", setupDelayMs: 50 });
    aliceToken = emu.issueToken("alice");
    bobToken = emu.issueToken("bob");
    dir = programDir(join(ROOT, "test", "e2e", "fixtures", "accounts"));
  });

  step(
    "each resource and data source acts as its own account; state holds names, no token",
    async () => {
      const r = ok(await stack({ shared: { apiUrl: emu.url, token: bobToken } }).up());
      expect(appsOf("alice").map((a) => a.name)).toEqual(["main-app"]);
      expect(appsOf("bob").map((a) => a.name)).toEqual(["shared-app"]);
      expect(appsOf("bob")[0].web_enabled).toBe(false);
      expect(r.outputs.sharedAccount).toBe("shared");
      expect(r.outputs.mainDatabases).toEqual(expect.arrayContaining(["alice-postgres"]));
      expect(r.outputs.sharedDatabases).not.toEqual(expect.arrayContaining(["alice-postgres"]));
      // Secrets opened, as `pulumi stack export --show-secrets` would show them.
      const state = loadState(join(dir, "state.json"));
      const accounts = Object.fromEntries(
        state.resources.map((x) => [x.urn.split("::").pop(), x.outputs.account]),
      );
      expect(accounts).toEqual({ main: undefined, shared: "shared", "shared-web": "shared" });
      const text = JSON.stringify(state) + readFileSync(join(dir, "state.json"), "utf8");
      for (const t of [aliceToken, bobToken]) expect(text).not.toContain(t);
    },
  );

  step("a rotated token in config is what later operations use, delete included", async () => {
    // A token of the right shape whose signature the service rejects: the old one, revoked.
    const revoked = bobToken.slice(0, -4) + (bobToken.endsWith("AAAA") ? "BBBB" : "AAAA");
    await expect(stack({ shared: { apiUrl: emu.url, token: revoked } }).destroy()).rejects.toThrow(
      /401|token/i,
    );
    expect(appsOf("bob")).toHaveLength(1);
    const rotated = emu.issueToken("bob", { expiresInSeconds: 3600 });
    expect(rotated).not.toBe(bobToken);
    await stack({ shared: { apiUrl: emu.url, token: rotated } }).destroy();
    expect(appsOf("bob")).toHaveLength(0);
    expect(appsOf("alice")).toHaveLength(0);
  });
});
