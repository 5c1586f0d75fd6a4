import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { useEmulators } from "../helpers/emulator";
import { InProcessProvider } from "../helpers/in-process-provider";
import { appSource, expectNoToken, useInProcessProvider } from "../helpers/provider-env";

const emulators = useEmulators();

const env = useInProcessProvider({ setupDelayMs: 50 }, { listCacheMs: 0 });
const urn = env.urn("App", "web");

describe("App through the provider's handlers, called as the host calls them", () => {
  test("create → read → no-op diff → change → replace → drift → delete", async () => {
    const { host, emu } = env;
    const dir = await appSource();
    const program = { source: dir, name: "web", env: { GREETING: "hello world" }, ram: 512 };

    const checked = await host.check(urn, {}, await env.inputs("App", program));
    expect(checked.failures).toEqual([]);
    expect(checked.inputs.sourceHash).toMatch(/^[0-9a-f]{64}$/);

    const created = await host.create(urn, checked.inputs);
    const record = emu.world.apps.find((a) => a.id === created.id)!;
    expect(record).toMatchObject({ name: "web", ram: 512, env_keys: ["GREETING"] });
    // sourceHash is over the content, not the compressed bytes the service received.
    expect(record.archive_sha256).not.toBe(checked.inputs.sourceHash);
    expect(created.properties).toMatchObject({ name: "web", ram: 512, setup: true, isApp: true });
    expect(created.properties.userId).toBe(emu.users[0].id);

    const read = await host.read(created.id, urn, created.properties);
    expect(read.id).toBe(created.id);
    expect(read.properties).toMatchObject({ name: "web", ram: 512, setup: true });
    // Nothing drifted: no inputs in the answer, so the engine keeps the inputs it holds.
    expect(read.inputs).toBeUndefined();

    // Same program again: packing is deterministic, so nothing to do.
    const again = await host.check(urn, checked.inputs, await env.inputs("App", program));
    expect(again.inputs.sourceHash).toBe(checked.inputs.sourceHash);
    expect(await host.diff(created.id, urn, created.properties, again.inputs)).toMatchObject({
      changes: false,
      replaces: [],
    });

    // A setting that cannot change in place (no update endpoint) replaces, and says which.
    const bigger = await host.check(
      urn,
      again.inputs,
      await env.inputs("App", { ...program, ram: 1024 }),
    );
    expect(await host.diff(created.id, urn, created.properties, bigger.inputs)).toMatchObject({
      changes: true,
      replaces: ["ram"],
      deleteBeforeReplace: false,
    });

    // Edited source: replaced because of its content.
    await writeFile(join(dir, "index.js"), "console.log('v2')\n");
    const edited = await host.check(urn, again.inputs, await env.inputs("App", program));
    expect(await host.diff(created.id, urn, created.properties, edited.inputs)).toMatchObject({
      replaces: ["sourceHash"],
    });

    // A different setup timeout is an in-place update.
    const patient = await host.check(
      urn,
      again.inputs,
      await env.inputs("App", { ...program, setupTimeoutSeconds: 60 }),
    );
    const d = await host.diff(created.id, urn, created.properties, {
      ...patient.inputs,
      sourceHash: checked.inputs.sourceHash,
    });
    expect(d).toMatchObject({ changes: true, replaces: [] });
    const updated = await host.update(created.id, urn, created.properties, patient.inputs);
    expect(updated).toMatchObject({ setupTimeoutSeconds: 60, name: "web" });
    expect(emu.world.apps.filter((a) => a.name === "web")).toHaveLength(1);
    // Removing it again is an update that leaves it out of the state, so the next diff is clean.
    const removed = await host.update(created.id, urn, updated, again.inputs);
    expect(removed.setupTimeoutSeconds).toBeUndefined();
    expect(removed.ram).toBe(512);
    expect(await host.diff(created.id, urn, removed, again.inputs)).toMatchObject({
      changes: false,
    });

    // Drift: someone changes the app's RAM behind the stack's back; refresh sees it.
    emu.world.apps.find((a) => a.id === created.id)!.ram = 2048;
    const drifted = await host.read(created.id, urn, created.properties);
    expect(drifted.properties.ram).toBe(2048);
    expect(drifted.inputs?.ram).toBe(2048);
    expect((await host.diff(created.id, urn, drifted.properties, again.inputs)).replaces).toContain(
      "ram",
    );

    for (const v of [checked, created, read, drifted]) expectNoToken(v, env.token);

    await host.delete(created.id, urn, created.properties);
    expect(emu.world.apps.some((a) => a.id === created.id)).toBe(false);
    await host.delete(created.id, urn, created.properties); // already gone: fine
    expect((await host.read(created.id, urn, created.properties)).id).toBe("");
  });

  test("a fixed subdomain is replaced delete-first (it cannot be held twice)", async () => {
    const dir = await appSource();
    const p = { source: dir, name: "sub", subdomain: "fixed-sub" };
    const checked = await env.host.check(urn, {}, await env.inputs("App", p));
    const bigger = await env.host.check(urn, {}, await env.inputs("App", { ...p, ram: 1024 }));
    const d = await env.host.diff("x", urn, checked.inputs, bigger.inputs);
    expect(d).toMatchObject({ replaces: ["ram"], deleteBeforeReplace: true });
  });

  test("adoptId manages an existing app without uploading", async () => {
    const dir = await appSource();
    const made = await env.host.create(
      urn,
      (await env.host.check(urn, {}, await env.inputs("App", { source: dir, name: "old" }))).inputs,
    );
    env.emu.resetStats();
    const adopt = await env.host.check(
      urn,
      {},
      await env.inputs("App", { source: dir, name: "old", adoptId: made.id }),
    );
    const adopted = await env.host.create(urn, adopt.inputs);
    expect(adopted.id).toBe(made.id);
    expect(env.emu.stats().requests["POST /apps"]).toBeUndefined();
    const missing = await env.host.check(
      urn,
      {},
      await env.inputs("App", { source: dir, name: "x", adoptId: "nope" }),
    );
    await expect(env.host.create(urn, missing.inputs)).rejects.toThrow(
      /adoptId: no app nope exists/,
    );
  });
});

describe("App failure paths", () => {
  test("setup past the timeout: the error carries the id, so the app is kept, not orphaned", async () => {
    // A service whose setups take an hour (on the shared virtual clock: nobody waits for it).
    const emu = await emulators.start({
      seed: "stuck",
      setupDelayMs: 3_600_000,
      now: env.clock.now,
    });
    const host = await InProcessProvider.start({}, env.clock);
    let err: Error & {
      initFailure?: { id: string; properties: Record<string, unknown>; reasons: string[] };
    };
    let provider: unknown;
    try {
      await host.configure({ "hosting:apiUrl": emu.url, "hosting:token": emu.issueToken() });
      const dir = await appSource();
      const checked = await host.check(
        urn,
        {},
        await env.inputs("App", { source: dir, name: "stuck", setupTimeoutSeconds: 0.5 }),
      );
      provider = checked.inputs.__provider;
      err = (await host.create(urn, checked.inputs).catch((e: unknown) => e)) as typeof err;
    } finally {
      await host.stop();
      await emu.stop();
    }
    expect(err.message).toMatch(/setup did not finish within 0.5 s/);
    const stuck = emu.world.apps.filter((a) => a.name === "stuck");
    expect(stuck).toHaveLength(1);
    expect(err.initFailure?.id).toBe(stuck[0].id);
    expect(err.initFailure?.properties.__provider).toBe(provider);
    expect(err.initFailure?.properties.setup).toBe(false);
  });

  test("a lost reply to POST /apps (commit, then drop): exactly one app exists and it is adopted", async () => {
    const dir = await appSource();
    env.emu.setFaults({ rules: [{ route: "POST /apps", commitThenDrop: true, times: 1 }] });
    const checked = await env.host.check(
      urn,
      {},
      await env.inputs("App", { source: dir, name: "dropped-reply" }),
    );
    const created = await env.host.create(urn, checked.inputs);
    env.emu.setFaults({});
    const apps = env.emu.world.apps.filter((a) => a.name === "dropped-reply");
    expect(apps).toHaveLength(1);
    expect(created.id).toBe(apps[0].id);
    expect(env.emu.stats().faults.commitThenDrop).toBeGreaterThanOrEqual(1);
  });

  test("bad inputs: failures name the property and the fix, and no request is sent", async () => {
    env.emu.resetStats();
    const bad = await env.host.check(
      urn,
      {},
      await env.inputs("App", {
        source: "/no/such/dir",
        name: "",
        ram: 5,
        subdomain: "Not_Valid",
        env: { "1BAD": "x" },
      }),
    );
    const byProp = Object.fromEntries(bad.failures.map((f) => [f.property, f.reason]));
    expect(byProp.name).toMatch(/name must be/);
    expect(byProp.ram).toMatch(/at least 128/);
    expect(byProp.subdomain).toMatch(/lower-case/);
    expect(Object.keys(byProp).some((k) => k.startsWith("env"))).toBe(true);
    const noSource = await env.host.check(
      urn,
      {},
      await env.inputs("App", { source: "/no/such/dir", name: "ok" }),
    );
    expect(noSource.failures).toEqual([
      { property: "source", reason: expect.stringMatching(/does not exist/) },
    ]);
    const missing = await env.host.check(urn, {}, await env.inputs("App", {}));
    expect(missing.failures.map((f) => f.property).sort()).toEqual(["name", "source"]);
    expect(env.emu.stats().total).toBe(0);
  });

  test("a source with its own hosting.json that disagrees is refused at check", async () => {
    const dir = await appSource({ "hosting.json": JSON.stringify({ name: "other" }) });
    const r = await env.host.check(urn, {}, await env.inputs("App", { source: dir, name: "mine" }));
    expect(r.failures[0]).toMatchObject({
      property: "source",
      reason: expect.stringMatching(/hosting.json that differs/),
    });
    const ok = await env.host.check(
      urn,
      {},
      await env.inputs("App", {
        source: await appSource({ "hosting.json": JSON.stringify({ name: "mine" }) }),
        name: "mine",
      }),
    );
    expect(ok.failures).toEqual([]);
  });
});
