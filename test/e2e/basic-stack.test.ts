import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startEmulator, type RunningEmulator } from "../../src/emulator";
import { Deployment, type RunResult } from "../harness/deployment";
import { ROOT } from "../harness/pulumi-parts";
import { programDir } from "../harness/stack-dir";
import { fixtureStack } from "../helpers/fixture-stack";
import { kind, mutations, ops } from "../helpers/steps";

/*
 * The example stack end to end: Pulumi's program runtime runs examples/basic, our test engine
 * sends its resources to Pulumi's dynamic-provider host, and the emulator plays the service.
 */

describe("examples/basic through Pulumi's program runtime", () => {
  let emu: RunningEmulator;
  let dir: string;
  let stack: Deployment;
  let token: string;
  const greeting = `greeting-${Date.now()}`;
  const ok = <R extends RunResult>(r: R) => {
    if (!r.ok) throw new Error(`deployment failed (${r.code}):\n${r.stderr}\n${r.stdout}`);
    return r;
  };
  const userApps = () => emu.world.apps.filter((a) => a.user_id === emu.users[0].id);

  beforeAll(async () => {
    emu = await startEmulator({ seed: "e2e", setupDelayMs: 50, domainActivationMs: 100 });
    token = emu.issueToken();
    dir = programDir(join(ROOT, "examples", "basic"));
    stack = new Deployment({
      programDir: dir,
      providerCwd: dir,
      stateFile: join(dir, "state.json"),
      project: "hosting-basic",
      config: {
        "hosting:apiUrl": emu.url,
        "hosting:token": token,
        "hosting-basic:greeting": greeting,
      },
      secretConfigKeys: ["hosting:token"],
    });
  });
  afterAll(() => emu.stop());

  test("preview of a new stack plans every create and changes nothing", async () => {
    emu.resetStats();
    const r = ok(await stack.preview());
    expect(ops(r)).toEqual({
      App: "create",
      CustomDomain: "create",
      AppWebAccess: "create",
      AppAnalytics: "create",
    });
    expect(mutations(emu)).toBe(0);
    expect(userApps()).toHaveLength(0);
  });

  test("up creates everything; the outputs match the service", async () => {
    const r = ok(await stack.up());
    const apps = userApps();
    expect(apps).toHaveLength(1);
    const app = apps[0];
    expect(r.outputs.appId).toBe(app.id);
    expect(app).toMatchObject({
      name: "basic-web",
      ram: 512,
      web_enabled: true,
      analytics_enabled: true,
    });
    expect(app.runtime).toEqual({ language: "node", version: "20.18.1" });
    expect(app.env_keys).toEqual(["GREETING", "NODE_ENV"]);
    expect(app.domain?.hostname).toBe("www.basic.pointed.test");
    expect(r.outputs.appUrl).toBe("https://www.basic.pointed.test");
    const records = r.outputs.dnsRecords as Array<{ purpose: string; value: string }>;
    expect(records.map((x) => x.purpose)).toEqual(["routing", "ownership", "ssl"]);
    expect(records[1].value).toBe(app.domain?.ownership_value);
    expect(r.outputs.databaseConnectionUrl).toMatch(/^postgres:\/\//);
    expect(r.secretOutputs).toEqual(["databaseConnectionUrl"]);
  });

  test("a second preview reports no changes", async () => {
    emu.resetStats();
    const r = ok(await stack.preview());
    expect(new Set(r.steps.map((s) => s.op))).toEqual(new Set(["same"]));
    expect(mutations(emu)).toBe(0);
  });

  test("a refresh right after up shows no change, and App has no customDomain output", async () => {
    const refreshed = await stack.refresh();
    expect(new Set(refreshed.steps.map((s) => s.op))).toEqual(new Set(["same"]));
    const state = JSON.parse(readFileSync(join(dir, "state.json"), "utf8"));
    const app = state.resources.find((r: { urn: string }) => r.urn.endsWith("hosting:App::web"));
    // The domain is the CustomDomain's: read from the app, it changed once the domain attached.
    expect(app.outputs.customDomain).toBeUndefined();
    // The runtime object pickRuntimeVersion returned is held as a runtime: language and version.
    expect(app.inputs.runtime).toEqual({ language: "node", version: "20.18.1" });
  });

  test("the state file holds neither the token nor any secret in plain text", () => {
    const text = readFileSync(join(dir, "state.json"), "utf8");
    expect(text).not.toContain(token);
    expect(text).not.toContain(greeting);
    expect(text).not.toMatch(/postgres:\/\//);
    expect(text).toContain("ciphertext");
  });

  test("editing the source replaces the app; domain, web access and analytics follow; no orphans", async () => {
    const before = userApps()[0].id;
    writeFileSync(join(dir, "app", "index.js"), "console.log('v2');\n");
    const r = ok(await stack.up());
    expect(r.steps.find((s) => kind(s) === "App")).toMatchObject({
      op: "replace",
      replaces: ["sourceHash"],
    });
    expect(ops(r)).toMatchObject({
      CustomDomain: "replace",
      AppWebAccess: "replace",
      AppAnalytics: "replace",
    });
    const apps = userApps();
    expect(apps).toHaveLength(1);
    expect(apps[0].id).not.toBe(before);
    expect(apps[0]).toMatchObject({ analytics_enabled: true, web_enabled: true });
    expect(apps[0].domain?.hostname).toBe("www.basic.pointed.test");
    expect(r.outputs.appId).toBe(apps[0].id);
  });

  test("refresh finds an out-of-band change, and the next preview plans to undo it", async () => {
    userApps()[0].analytics_enabled = false;
    // preview --refresh: the refresh, then the preview, in one provider host.
    const p = ok(await stack.preview({ refresh: true }));
    expect(ops(p.refreshed!)).toEqual({
      App: "same",
      CustomDomain: "same",
      AppAnalytics: "update",
      AppWebAccess: "same",
    });
    expect(ops(p)).toMatchObject({ AppAnalytics: "update", App: "same", CustomDomain: "same" });
  });

  test("refresh drops a domain removed behind the stack's back; up puts it back", async () => {
    userApps()[0].domain = null;
    const r = ok(await stack.up({ refresh: true }));
    expect(ops(r.refreshed!)).toMatchObject({ CustomDomain: "delete" });
    expect(ops(r)).toMatchObject({ CustomDomain: "create", AppAnalytics: "update" });
    expect(userApps()[0].domain?.hostname).toBe("www.basic.pointed.test");
    expect(userApps()[0].analytics_enabled).toBe(true);
  });

  test("destroy leaves nothing the stack made", async () => {
    const r = await stack.destroy();
    expect(r.steps.every((s) => s.op === "delete")).toBe(true);
    expect(userApps()).toHaveLength(0);
    const state = JSON.parse(readFileSync(join(dir, "state.json"), "utf8"));
    expect(state.resources).toEqual([]);
  });
});

describe("retainOnDelete", () => {
  test("destroy lets go of the app without deleting it", async () => {
    const emu = await startEmulator({ seed: "retain", setupDelayMs: 0 });
    try {
      const stack = fixtureStack(emu, "retain");
      const up = await stack.up();
      expect(up.ok).toBe(true);
      const down = await stack.destroy();
      expect(down.steps.map((s) => s.op)).toEqual(["retain"]);
      expect(emu.world.apps.map((a) => a.id)).toEqual([up.outputs.appId]);
    } finally {
      await emu.stop();
    }
  });
});

describe("a stack with a bad input", () => {
  test("fails at preview naming the property and the fix, and sends no request", async () => {
    const emu = await startEmulator({ seed: "bad" });
    try {
      const stack = fixtureStack(emu, "bad-input");
      emu.resetStats();
      const r = await stack.preview();
      expect(r.ok).toBe(false);
      const said = r.stderr + r.stdout + r.logs.map((l) => l.message).join("\n");
      expect(said).toMatch(/name: name must be 1-63 letters/);
      expect(said).toMatch(/ram: ram must be at least 128/);
      expect(emu.stats().total).toBe(0);
    } finally {
      await emu.stop();
    }
  });
});
