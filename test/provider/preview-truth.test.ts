import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { appSource, useProviderHost } from "../helpers/provider-env";

/*
 * What a preview says, through Pulumi's dynamic-provider host: an input still unknown that can
 * replace makes the diff say replace (Pulumi's convention: the `up` may replace, so the preview
 * must not promise an update), for every kind; and a value that only spells out a default (the
 * platform's, or the documented one of an optional input) is no change.
 */

/** Pulumi's marker for a value not known until apply. */
const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

const env = useProviderHost({}, { listCacheMs: 0 });

/** check then diff against a state, as the engine does for a resource that exists. */
async function plan(
  kind: Parameters<typeof env.inputs>[0],
  state: Record<string, unknown>,
  program: Record<string, unknown>,
) {
  const urn = env.urn(kind, "r");
  const checked = await env.host.check(urn, state, await env.inputs(kind, program));
  expect(checked.failures).toEqual([]);
  return env.host.diff("id", urn, state, checked.inputs);
}

describe("App", () => {
  let state: Record<string, unknown>;
  let program: Record<string, unknown>;
  let dir: string;
  beforeAll(async () => {
    dir = await appSource();
    program = { source: dir, name: "truth", env: { A: "1" } };
    const urn = env.urn("App", "truth");
    const checked = await env.host.check(urn, {}, await env.inputs("App", program));
    state = (await env.host.create(urn, checked.inputs)).properties;
  });
  afterAll(() =>
    env.host.delete(String(state.id ?? ""), env.urn("App", "truth"), state).catch(() => undefined),
  );

  test("an unknown source: replace, as the up that learns a changed source does", async () => {
    const preview = await plan("App", state, { ...program, source: UNKNOWN });
    expect(preview).toEqual({
      changes: true,
      replaces: ["sourceHash"],
      deleteBeforeReplace: false,
    });
    const other = await appSource({ "extra.js": "x" });
    expect(await plan("App", state, { ...program, source: other })).toEqual(preview);
  });

  test.each([["setupTimeoutSeconds"], ["adoptId"], ["env"]])(
    "a changed source with %s unknown: still hashed, so the replace shows",
    async (key) => {
      const other = await appSource({ "extra.js": "y" });
      const d = await plan("App", state, { ...program, source: other, [key]: UNKNOWN });
      expect(d.replaces).toContain("sourceHash");
    },
  );

  test("an unknown setting of the manifest: replace", async () => {
    const d = await plan("App", state, { ...program, ram: UNKNOWN });
    expect(d).toEqual({
      changes: true,
      replaces: ["ram", "sourceHash"],
      deleteBeforeReplace: false,
    });
  });

  test("only setupTimeoutSeconds unknown, the source unchanged: an update, no replace", async () => {
    const d = await plan("App", state, { ...program, setupTimeoutSeconds: UNKNOWN });
    expect(d).toEqual({ changes: true, replaces: [], deleteBeforeReplace: false });
  });

  test("an unknown account: replace", async () => {
    const d = await plan("App", state, { ...program, account: UNKNOWN });
    expect(d.replaces).toContain("account");
  });

  test("the platform's defaults and the assigned subdomain, spelled out: no change", async () => {
    expect(state.ram).toBe(512);
    expect(typeof state.subdomain).toBe("string");
    const pinned = { ...program, ram: 512, vcpu: state.vcpu, subdomain: state.subdomain };
    expect(await plan("App", state, pinned)).toEqual({
      changes: false,
      replaces: [],
      deleteBeforeReplace: false,
    });
  });

  test("the documented setupTimeoutSeconds (300): no change; another value: an update", async () => {
    expect((await plan("App", state, { ...program, setupTimeoutSeconds: 300 })).changes).toBe(
      false,
    );
    expect(await plan("App", state, { ...program, setupTimeoutSeconds: 301 })).toEqual({
      changes: true,
      replaces: [],
      deleteBeforeReplace: false,
    });
  });

  // In place, so the source index must see the change; put back after, since the other tests
  // of this block (in any order) plan against the same folder.
  test("a changed file still replaces", async () => {
    const file = join(dir, "index.js");
    const before = await readFile(file);
    try {
      await writeFile(file, "console.log('changed');\n");
      expect((await plan("App", state, program)).replaces).toEqual(["sourceHash"]);
    } finally {
      await writeFile(file, before);
    }
  });
});

describe("CustomDomain", () => {
  const state = {
    appId: "a",
    domain: "www.example.test",
    hostname: "www.example.test",
    status: "active",
  };
  const program = { appId: "a", domain: "www.example.test" };

  test.each([["appId"], ["domain"]])("%s unknown: replace", async (key) => {
    const d = await plan("CustomDomain", state, { ...program, [key]: UNKNOWN });
    expect(d).toEqual({ changes: true, replaces: [key], deleteBeforeReplace: true });
  });

  test("waitForActive unknown: an update", async () => {
    const d = await plan("CustomDomain", state, { ...program, waitForActive: UNKNOWN });
    expect(d).toEqual({ changes: true, replaces: [], deleteBeforeReplace: false });
  });

  test("documented defaults (waitForActive false, activeTimeoutSeconds 900): no change", async () => {
    const d = await plan("CustomDomain", state, {
      ...program,
      waitForActive: false,
      activeTimeoutSeconds: 900,
    });
    expect(d.changes).toBe(false);
    const other = await plan("CustomDomain", state, { ...program, activeTimeoutSeconds: 60 });
    expect(other.changes).toBe(true);
  });
});

describe.each([["AppWebAccess"], ["AppAnalytics"]] as const)("%s", (kind) => {
  const state = { appId: "a", enabled: true };
  test("appId unknown: replace; enabled unknown: an update", async () => {
    expect((await plan(kind, state, { appId: UNKNOWN, enabled: true })).replaces).toEqual([
      "appId",
    ]);
    expect(await plan(kind, state, { appId: "a", enabled: UNKNOWN })).toEqual({
      changes: true,
      replaces: [],
      deleteBeforeReplace: false,
    });
  });
});

describe("actions", () => {
  test("VmStart: vmId unknown replaces, triggers unknown updates; unset and [] are the same", async () => {
    const state = { vmId: "vm-1", message: "started" };
    expect((await plan("VmStart", state, { vmId: UNKNOWN })).replaces).toEqual(["vmId"]);
    expect((await plan("VmStart", state, { vmId: "vm-1", triggers: UNKNOWN })).changes).toBe(true);
    expect((await plan("VmStart", state, { vmId: "vm-1", triggers: [] })).changes).toBe(false);
    const withEmpty = { ...state, triggers: [] };
    expect((await plan("VmStart", withEmpty, { vmId: "vm-1" })).changes).toBe(false);
    expect((await plan("VmStart", state, { vmId: "vm-1", triggers: [1] })).changes).toBe(true);
  });

  test("BackupDeletion and DatabaseSetupRetry: an unknown target replaces", async () => {
    const backup = { projectId: "p", backupId: "b" };
    expect(
      (await plan("BackupDeletion", backup, { ...backup, backupId: UNKNOWN })).replaces,
    ).toEqual(["backupId"]);
    const db = { databaseId: "d" };
    expect((await plan("DatabaseSetupRetry", db, { databaseId: UNKNOWN })).replaces).toEqual([
      "databaseId",
    ]);
  });
});
