import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { HostingClient } from "../../src/api";
import type { FaultRule } from "../../src/emulator";
import { legacyArchiveHash } from "../../src/provider/app/packaging";
import { newApp } from "../helpers/emulator";
import { appSource, useInProcessProvider } from "../helpers/provider-env";
import { until } from "../helpers/until";

/*
 * The stack's state stays exactly true under faults: every app made is held by exactly one
 * resource (no orphan, no duplicate, no shared app) and no resource points at a deleted app.
 */

const env = useInProcessProvider({ setupDelayMs: 50 });
afterEach(() => env.emu.setFaults({}));

type InitFailure = { id: string; properties: Record<string, unknown>; reasons: string[] };
interface Outcome {
  /** The app the resource holds: from a successful create or a "created but failed" error. */
  id?: string;
  properties?: Record<string, unknown>;
  error?: Error & { initFailure?: InitFailure };
}

async function create(name: string, extra: Record<string, unknown> = {}): Promise<Outcome> {
  const urn = env.urn("App", name);
  const checked = await env.host.check(
    urn,
    {},
    await env.inputs("App", { source: await appSource(), name, ...extra }),
  );
  expect(checked.failures).toEqual([]);
  return settle(env.host.create(urn, checked.inputs));
}

async function settle(
  p: Promise<{ id: string; properties: Record<string, unknown> }>,
): Promise<Outcome> {
  try {
    return await p;
  } catch (e) {
    const error = e as Error & { initFailure?: InitFailure };
    return { id: error.initFailure?.id, properties: error.initFailure?.properties, error };
  }
}

/** Apps of these names on the platform, set against the ids the resources hold. */
function ledger(names: string[], held: Array<string | undefined>) {
  const ids = held.filter((id): id is string => id !== undefined);
  const apps = env.emu.world.apps.filter((a) => names.includes(a.name)).map((a) => a.id);
  return {
    orphans: apps.filter((id) => !ids.includes(id)),
    shared: ids.filter((id, i) => ids.indexOf(id) !== i),
    dangling: ids.filter((id) => !apps.includes(id)),
  };
}
const CLEAN = { orphans: [], shared: [], dangling: [] };

describe("no orphan: every failure after POST /apps keeps the app in the stack", () => {
  // The first GET /apps (the "before" view) passes; every list call of the setup wait fails.
  const waitFaults: Array<[string, FaultRule]> = [
    ["500", { route: "GET /apps", status: 500, after: 1 }],
    ["connection reset", { route: "GET /apps", reset: true, after: 1 }],
  ];
  test.each(waitFaults)("GET /apps failing with %s after the POST", async (label, rule) => {
    const name = `wait-${label.replace(/\W/g, "")}`;
    env.emu.setFaults({ rules: [rule] });
    const out = await create(name);
    env.emu.setFaults({});
    // The first list after the POST confirms the app; it fails, and the app is kept all the same.
    expect(out.error?.message).toMatch(/was created, but the app list could not be read/);
    const made = env.emu.world.apps.filter((a) => a.name === name);
    expect(made).toHaveLength(1);
    expect(out.id).toBe(made[0].id);
    expect(out.properties?.sourceHash).toMatch(/^[0-9a-f]{64}$/);
    expect(ledger([name], [out.id])).toEqual(CLEAN);

    // The next `up` updates a resource that failed to initialise: it waits for setup again.
    const urn = env.urn("App", name);
    const again = await env.host.update(out.id!, urn, out.properties!, out.properties!);
    expect(again).toMatchObject({ setup: true, isApp: true });
  });

  test("GET /apps answering 429 during the setup wait is waited out: the create succeeds", async () => {
    env.emu.setFaults({
      rules: [{ route: "GET /apps", status: 429, retryAfterSeconds: 0, after: 1, times: 6 }],
    });
    const out = await create("wait-429");
    // 429 is back-pressure, not failure: six of them in a row are waited out.
    expect(out.error).toBeUndefined();
    const made = env.emu.world.apps.filter((a) => a.name === "wait-429");
    expect(made).toHaveLength(1);
    expect(out.id).toBe(made[0].id);
    expect(ledger(["wait-429"], [out.id])).toEqual(CLEAN);
  });

  const lostReplies: Array<[string, FaultRule]> = [
    ["502", { route: "POST /apps", commitThenStatus: 502, times: 1 }],
    ["503", { route: "POST /apps", commitThenStatus: 503, times: 1 }],
    ["504", { route: "POST /apps", commitThenStatus: 504, times: 1 }],
    ["reset", { route: "POST /apps", commitThenDrop: true, times: 1 }],
  ];
  test.each(lostReplies)("a committed POST /apps answered %s is recovered", async (label, rule) => {
    const name = `lost-${label}`;
    env.emu.setFaults({ rules: [rule] });
    const out = await create(name);
    expect(out.error).toBeUndefined();
    const made = env.emu.world.apps.filter((a) => a.name === name);
    expect(made).toHaveLength(1);
    expect(out.id).toBe(made[0].id);
    expect(ledger([name], [out.id])).toEqual(CLEAN);
  });

  test("a POST /apps reset before it took effect: the list proves no app was made, so it is sent again", async () => {
    env.emu.setFaults({ rules: [{ route: "POST /apps", reset: true, times: 1 }] });
    const out = await create("never-made");
    expect(out.error).toBeUndefined();
    const made = env.emu.world.apps.filter((a) => a.name === "never-made");
    expect(made.map((a) => a.id)).toEqual([out.id]);
    expect(ledger(["never-made"], [out.id])).toEqual(CLEAN);
  });

  test("a lost reply, then the app list fails 20 times: recovery keeps asking and finds the app", async () => {
    // The reviewer's sequence: POST /apps applied but answered 502, then 20 x 503 on GET /apps.
    env.emu.resetStats();
    env.emu.setFaults({
      rules: [
        { route: "POST /apps", commitThenStatus: 502, times: 1 },
        { route: "GET /apps", status: 503, after: 1, times: 20 },
      ],
    });
    const out = await create("slow-list");
    expect(out.error).toBeUndefined();
    const made = env.emu.world.apps.filter((a) => a.name === "slow-list");
    expect(made).toHaveLength(1); // no duplicate
    expect(out.id).toBe(made[0].id);
    expect(ledger(["slow-list"], [out.id])).toEqual(CLEAN); // no orphan
    expect(env.emu.stats().faults.status).toBe(20);
  });

  test("when the app list cannot be read within the create's budget, the error says how to find out", async () => {
    env.emu.setFaults({
      rules: [
        { route: "POST /apps", commitThenStatus: 502, times: 1 },
        { route: "GET /apps", status: 500, after: 1 },
      ],
    });
    const out = await create("unknown-fate", { setupTimeoutSeconds: 3 });
    expect(out.error?.message).toMatch(
      /app list could not be read.*named "unknown-fate" was created at .* set adoptId/s,
    );
  });
});

describe("no stranger's app", () => {
  test("two same-named creates in parallel, one POST reset before commit: nobody takes the other's app", async () => {
    env.emu.setFaults({ rules: [{ route: "POST /apps", reset: true, times: 1 }] });
    const outs = await Promise.all([create("twin"), create("twin")]);
    // The reset one is proven not applied and sent again: each resource gets its own app.
    expect(outs.map((o) => o.error)).toEqual([undefined, undefined]);
    expect(new Set(outs.map((o) => o.id)).size).toBe(2);
    const made = env.emu.world.apps.filter((a) => a.name === "twin");
    expect(made.map((a) => a.id).sort()).toEqual(outs.map((o) => o.id).sort());
    expect(
      ledger(
        ["twin"],
        outs.map((o) => o.id),
      ),
    ).toEqual(CLEAN);
  });

  test("two same-named creates in parallel, both replies lost after commit: each finds its own", async () => {
    env.emu.setFaults({ rules: [{ route: "POST /apps", commitThenDrop: true, times: 2 }] });
    const outs = await Promise.all([create("pair"), create("pair")]);
    expect(outs.every((o) => o.error === undefined)).toBe(true);
    expect(new Set(outs.map((o) => o.id)).size).toBe(2);
    expect(
      ledger(
        ["pair"],
        outs.map((o) => o.id),
      ),
    ).toEqual(CLEAN);
  });

  test("another program makes a same-named app while the reply is lost: none is adopted, both are listed", async () => {
    // The provider's POST is held long enough for another program's whole create to land.
    env.emu.setFaults({
      rules: [{ route: "POST /apps", commitThenStatus: 502, latencyMs: 1500, times: 1 }],
    });
    env.emu.resetStats();
    const pending = create("crowded");
    // Once the provider's POST is in, another program makes an app of the same name.
    await until("the provider's POST", () => (env.emu.stats().requests["POST /apps"] ?? 0) >= 1);
    const stranger = new HostingClient({ apiUrl: env.emu.url, token: env.token });
    let other: { id: string };
    try {
      other = await newApp(stranger, "crowded", {}, {});
    } finally {
      await stranger.close();
    }
    const out = await pending;
    expect(out.id).toBeUndefined();
    const ids = env.emu.world.apps.filter((a) => a.name === "crowded").map((a) => a.id);
    expect(ids).toHaveLength(2);
    expect(out.error?.message).toMatch(/2 new apps named "crowded" appeared/);
    for (const id of ids) expect(out.error?.message).toContain(id);
    expect(out.error?.message).toMatch(/adoptId/);
    expect(ids).toContain(other.id);
  });
});

describe("adoption is safe and honest", () => {
  /** An app made outside the stack. */
  async function existing(name: string) {
    return (await env.newApp(name)).id;
  }

  /**
   * The engine's replacement, in a later deployment than the adoption (a fresh provider host):
   * check, diff, check again without olds, create the new one, then delete the old one.
   */
  async function replace(
    name: string,
    old: { id: string; properties: Record<string, unknown> },
    program: Record<string, unknown>,
  ) {
    await env.nextDeployment();
    const urn = env.urn("App", name);
    const checked = await env.host.check(urn, old.properties, await env.inputs("App", program));
    const d = await env.host.diff(old.id, urn, old.properties, checked.inputs);
    expect(d.replaces.length).toBeGreaterThan(0);
    const fresh = await env.host.check(urn, {}, await env.inputs("App", program));
    const made = await env.host.create(urn, fresh.inputs);
    await env.host.delete(old.id, urn, old.properties);
    return { diff: d, made };
  }

  async function adopt(name: string, program: Record<string, unknown>) {
    const urn = env.urn("App", name);
    const checked = await env.host.check(urn, {}, await env.inputs("App", program));
    return env.host.create(urn, checked.inputs);
  }

  test("adopt, then change a setting: the replacement makes a new app and no resource points at a deleted one", async () => {
    const id = await existing("adopt-set");
    const program = { source: await appSource(), name: "adopt-set", adoptId: id };
    env.emu.resetStats();
    const adopted = await adopt("adopt-set", program);
    expect(adopted.id).toBe(id);
    expect(env.emu.stats().requests["POST /apps"]).toBeUndefined();
    expect(adopted.properties.sourceHash).toMatch(/^[0-9a-f]{64}$/);

    const { diff, made } = await replace("adopt-set", adopted, { ...program, ram: 1024 });
    expect(diff.replaces).toContain("ram");
    expect(made.id).not.toBe(id);
    expect(env.emu.world.apps.find((a) => a.id === made.id)?.ram).toBe(1024);
    expect(ledger(["adopt-set"], [made.id])).toEqual(CLEAN);
  });

  test("adopt, then change the source: the edit is a real change, replaced without losing the app", async () => {
    const id = await existing("adopt-src");
    const source = await appSource();
    const program = { source, name: "adopt-src", adoptId: id };
    const adopted = await adopt("adopt-src", program);
    const urn = env.urn("App", "adopt-src");
    // Unchanged source: nothing to do.
    const same = await env.host.check(urn, adopted.properties, await env.inputs("App", program));
    expect(await env.host.diff(id, urn, adopted.properties, same.inputs)).toMatchObject({
      changes: false,
    });
    await writeFile(join(source, "index.js"), "console.log('v2')\n");
    const { diff, made } = await replace("adopt-src", adopted, program);
    expect(diff.replaces).toEqual(["sourceHash"]);
    expect(made.id).not.toBe(id);
    expect(ledger(["adopt-src"], [made.id])).toEqual(CLEAN);
  });

  test("settings that differ from the adopted app show as a diff, not silence", async () => {
    const id = await existing("adopt-diff");
    const program = { source: await appSource(), name: "adopt-diff", adoptId: id, ram: 2048 };
    const adopted = await adopt("adopt-diff", program);
    expect(adopted.properties.ram).toBe(512); // what the app has, not what the program says
    const urn = env.urn("App", "adopt-diff");
    const again = await env.host.check(urn, adopted.properties, await env.inputs("App", program));
    expect(await env.host.diff(id, urn, adopted.properties, again.inputs)).toMatchObject({
      changes: true,
      replaces: ["ram"],
    });
    expect(ledger(["adopt-diff"], [id])).toEqual(CLEAN);
  });

  test("adoptId is read once: removing it after adoption changes nothing", async () => {
    const id = await existing("adopt-once");
    const program = { source: await appSource(), name: "adopt-once", adoptId: id };
    const adopted = await adopt("adopt-once", program);
    const urn = env.urn("App", "adopt-once");
    const { adoptId: _read, ...later } = program;
    const checked = await env.host.check(urn, adopted.properties, await env.inputs("App", later));
    expect(await env.host.diff(id, urn, adopted.properties, checked.inputs)).toMatchObject({
      changes: false,
    });
  });

  test("a resource renamed into one that adopts its app: the old one's delete keeps the app", async () => {
    const old = await env.newApp("renamed");
    await env.nextDeployment();
    const adopted = await adopt("renamed-new", {
      source: await appSource(),
      name: "renamed",
      adoptId: old.id,
    });
    await env.host.delete(old.id, env.urn("App", "renamed"), old.properties);
    expect(ledger(["renamed"], [adopted.id])).toEqual(CLEAN);
  });

  test("an app another resource of the stack holds is not adopted a second time", async () => {
    const held = await env.newApp("held");
    const urn = env.urn("App", "held");
    await env.host.diff(held.id, urn, held.properties, held.properties);
    const out = await settle(
      adopt("held-twice", { source: await appSource(), name: "held", adoptId: held.id }),
    );
    expect(out.error?.message).toMatch(/already held by another resource/);
    expect(ledger(["held"], [held.id])).toEqual(CLEAN);
  });
});

describe("upgrading a stack whose sourceHash was the zip bytes' hash", () => {
  test("unchanged source: an in-place update records the content hash; no replacement", async () => {
    const source = await appSource();
    const made = await env.newAppFrom("legacy", source);
    const old = {
      ...made.properties,
      sourceHash: await legacyArchiveHash(source, { name: "legacy" }),
    };
    const urn = env.urn("App", "legacy");
    const program = await env.inputs("App", { source, name: "legacy" });
    const checked = await env.host.check(urn, old, program);
    expect(await env.host.diff(made.id, urn, old, checked.inputs)).toMatchObject({
      changes: true,
      replaces: [],
    });
    const updated = await env.host.update(made.id, urn, old, checked.inputs);
    expect(updated.sourceHash).toBe(made.properties.sourceHash);

    // An edit since then is still a replacement.
    await writeFile(join(source, "index.js"), "console.log('v2')\n");
    const edited = await env.host.check(urn, old, program);
    expect((await env.host.diff(made.id, urn, old, edited.inputs)).replaces).toEqual([
      "sourceHash",
    ]);
  });
});
