import { appendFileSync } from "node:fs";
import { join } from "node:path";
import type { RunningEmulator } from "../../src/emulator";
import { useEmulators } from "../helpers/emulator";
import { ROOT } from "../helpers/pulumi-parts";
import { mutations } from "../helpers/steps";
import {
  describeEngine,
  diffsOf,
  ok,
  opsByName,
  projectFrom,
  PulumiStack,
} from "../helpers/engine";
import { tokenFormsIn } from "../helpers/token-forms";

jest.setTimeout(240_000);

/*
 * examples/basic through the real Pulumi CLI and engine, as a user runs it: every claim the
 * README makes about a deployment, observed from `pulumi` itself and the emulator's world.
 */

const KINDS = ["web", "www", "web-access", "analytics"];

describeEngine("examples/basic through the Pulumi CLI", () => {
  let emu: RunningEmulator;
  const emulators = useEmulators();
  let stack: PulumiStack;
  let token: string;
  let dir: string;
  const greeting = `greeting-${Date.now()}`;
  const userApps = () => emu.world.apps.filter((a) => a.user_id === emu.users[0].id);

  beforeAll(async () => {
    emu = await emulators.start({
      seed: "engine-basic",
      setupDelayMs: 50,
      domainActivationMs: 100,
    });
    token = emu.issueToken();
    dir = projectFrom(join(ROOT, "examples", "basic"));
    stack = new PulumiStack({ dir, project: "hosting-basic" });
    await stack.init({
      config: { "hosting:apiUrl": emu.url, "hosting-basic:greeting": greeting },
      secrets: { "hosting:token": token },
    });
  }, 120_000);

  test("preview of a new stack plans four creates and sends nothing that changes the service", async () => {
    emu.resetStats();
    const r = ok(await stack.preview());
    const ops = opsByName(r);
    for (const name of KINDS) expect(ops[name]).toBe("create");
    expect(mutations(emu)).toBe(0);
    expect(userApps()).toHaveLength(0);
  });

  test("up creates one app with its domain, web access and analytics; outputs match the service", async () => {
    ok(await stack.up());
    const apps = userApps();
    expect(apps).toHaveLength(1);
    expect(apps[0]).toMatchObject({
      name: "basic-web",
      ram: 512,
      web_enabled: true,
      analytics_enabled: true,
    });
    expect(apps[0].domain?.hostname).toBe("www.basic.pointed.test");
    const out = await stack.outputs();
    expect(out.appId).toBe(apps[0].id);
    expect(out.appUrl).toBe("https://www.basic.pointed.test");
    expect(out.databaseConnectionUrl).toBe("[secret]");
  });

  test("the real state (stack export and the backend's file) holds no token and no plain secret", async () => {
    const { text, deployment } = await stack.exportState();
    const onDisk = stack.checkpointText();
    for (const t of [text, onDisk]) {
      expect(tokenFormsIn(t, token)).toEqual([]);
      expect(t).not.toMatch(/postgres:\/\//);
      expect(t).toContain("ciphertext");
    }
    const resources = deployment.deployment.resources ?? [];
    // The engine keeps the whole stack config as the dynamic provider's inputs: plain config
    // (the greeting) in plain text there, as the user set it; the App's env, a secret, never.
    const app = resources.find((r) => r.type === "pulumi-nodejs:dynamic/hosting:App")!;
    expect(JSON.stringify(app)).not.toContain(greeting);
    expect(JSON.stringify(app.inputs?.env)).toContain("ciphertext");
    const dynamic = resources.filter((r) => r.type.startsWith("pulumi-nodejs:dynamic/"));
    expect(dynamic).toHaveLength(4);
    for (const r of dynamic) {
      // A thin closure that requires the handler module at call time: small, and no secret.
      const text = r.inputs?.__provider;
      expect(typeof text).toBe("string");
      expect((text as string).length).toBeLessThan(4096);
    }
  });

  test("a second preview has no changes (--expect-no-changes) and sends nothing", async () => {
    emu.resetStats();
    ok(await stack.preview(["--expect-no-changes"]));
    expect(mutations(emu)).toBe(0);
  });

  test("refresh right after up finds no drift", async () => {
    const r = ok(await stack.refresh(["--expect-no-changes"]));
    for (const name of KINDS) expect(opsByName(r)[name]).toBe("same");
  });

  test("a one-line source change: preview --diff shows the four replaces the README promises", async () => {
    appendFileSync(join(dir, "app", "index.js"), "// one more line\n");
    emu.resetStats();
    const r = ok(await stack.preview(["--diff"]));
    expect(opsByName(r)).toMatchObject({
      web: "replace",
      www: "replace",
      "web-access": "replace",
      analytics: "replace",
    });
    expect(diffsOf(r, "web")).toContain("sourceHash");
    expect(r.stdout).toContain("+-pulumi-nodejs:dynamic/hosting:App: (replace)");
    expect(r.stdout).toMatch(/~ sourceHash\s*: "[0-9a-f]{64}" => "[0-9a-f]{64}"/);
    expect(mutations(emu)).toBe(0);
  });

  test("up replaces the app: one app, a new id, the domain on it, web access and analytics set", async () => {
    const before = userApps()[0].id;
    ok(await stack.up());
    const apps = userApps();
    expect(apps).toHaveLength(1);
    expect(apps[0].id).not.toBe(before);
    expect(apps[0]).toMatchObject({ web_enabled: true, analytics_enabled: true });
    expect(apps[0].domain?.hostname).toBe("www.basic.pointed.test");
    expect((await stack.outputs()).appId).toBe(apps[0].id);
  });

  test("an env change (config greeting) replaces the app; the new app has the new value's key", async () => {
    await stack.setConfig({ "hosting-basic:greeting": `${greeting}-2` });
    const p = ok(await stack.preview());
    expect(opsByName(p).web).toBe("replace");
    expect(diffsOf(p, "web")).toContain("env");
    ok(await stack.up());
    expect(userApps()).toHaveLength(1);
  });

  test("a domain change moves only the CustomDomain", async () => {
    await stack.setConfig({ "hosting-basic:domain": "shop.basic.pointed.test" });
    const p = ok(await stack.preview());
    const ops = opsByName(p);
    expect(ops.www).toBe("replace");
    expect(ops.web).toBe("same");
    ok(await stack.up());
    expect(userApps()[0].domain?.hostname).toBe("shop.basic.pointed.test");
  });

  test("refresh finds an out-of-band change, and preview --refresh plans to undo it", async () => {
    userApps()[0].analytics_enabled = false;
    const p = ok(await stack.preview(["--refresh"]));
    expect(opsByName(p)).toMatchObject({ analytics: "update", web: "same", www: "same" });
    // A preview writes no state, its refresh included: a plain up still believes the old state
    // and changes nothing. `up --refresh` undoes the drift.
    const plain = ok(await stack.up());
    expect(opsByName(plain).analytics).toBe("same");
    expect(userApps()[0].analytics_enabled).toBe(false);
    ok(await stack.up(["--refresh"]));
    expect(userApps()[0].analytics_enabled).toBe(true);
  });

  test("up --refresh puts back a domain removed behind the stack's back", async () => {
    const hostname = userApps()[0].domain?.hostname;
    userApps()[0].domain = null;
    const r = ok(await stack.up(["--refresh"]));
    expect(opsByName(r).www).toBe("create");
    expect(userApps()[0].domain?.hostname).toBe(hostname);
  });

  test("destroy leaves the service empty", async () => {
    ok(await stack.destroy());
    expect(userApps()).toHaveLength(0);
    expect(await stack.resources()).toEqual([]);
  });
});
