import { useInProcessProvider } from "../helpers/provider-env";

const env = useInProcessProvider({ setupDelayMs: 0 }, { listCacheMs: 0 });

const newApp = (name: string) => env.newApp(name);
const record = (id: string) => env.emu.world.apps.find((a) => a.id === id)!;

describe("AppWebAccess", () => {
  const urn = env.urn("AppWebAccess", "web");
  test("create off → update on (in place) → app replaced means replace → delete restores the default", async () => {
    const app = await newApp("toggle-web");
    const off = await env.host.check(
      urn,
      {},
      await env.inputs("AppWebAccess", { appId: app.id, enabled: false }),
    );
    const created = await env.host.create(urn, off.inputs);
    expect(record(app.id).web_enabled).toBe(false);
    expect(await env.host.diff(created.id, urn, created.properties, off.inputs)).toMatchObject({
      changes: false,
    });

    const on = await env.host.check(
      urn,
      {},
      await env.inputs("AppWebAccess", { appId: app.id, enabled: true }),
    );
    expect(await env.host.diff(created.id, urn, created.properties, on.inputs)).toMatchObject({
      changes: true,
      replaces: [],
    });
    const updated = await env.host.update(created.id, urn, created.properties, on.inputs);
    expect(updated.enabled).toBe(true);
    expect(record(app.id).web_enabled).toBe(true);

    const moved = await env.host.check(
      urn,
      {},
      await env.inputs("AppWebAccess", { appId: "another-app", enabled: true }),
    );
    expect((await env.host.diff(created.id, urn, updated, moved.inputs)).replaces).toEqual([
      "appId",
    ]);

    await env.host.update(created.id, urn, updated, off.inputs);
    await env.host.delete(created.id, urn, { ...updated, enabled: false });
    expect(record(app.id).web_enabled).toBe(true);
  });

  test("enabled must be a boolean: a failure naming it, no request", async () => {
    env.emu.resetStats();
    const bad = await env.host.check(
      urn,
      {},
      await env.inputs("AppWebAccess", { appId: "a", enabled: "yes" }),
    );
    expect(bad.failures).toEqual([
      { property: "enabled", reason: expect.stringMatching(/true or false/) },
    ]);
    expect(env.emu.stats().total).toBe(0);
  });

  test("a refresh after the app is deleted drops it; delete of a gone app is fine", async () => {
    const app = await newApp("gone");
    const c = await env.host.check(
      urn,
      {},
      await env.inputs("AppWebAccess", { appId: app.id, enabled: false }),
    );
    const created = await env.host.create(urn, c.inputs);
    env.emu.world.apps = env.emu.world.apps.filter((a) => a.id !== app.id);
    expect((await env.host.read(created.id, urn, created.properties)).id).toBe("");
    await env.host.delete(created.id, urn, created.properties);
  });
});

describe("AppAnalytics", () => {
  const urn = env.urn("AppAnalytics", "stats");
  test("create on → drift off is seen on refresh → update back on → delete turns it off", async () => {
    const app = await newApp("analytics");
    const on = await env.host.check(
      urn,
      {},
      await env.inputs("AppAnalytics", { appId: app.id, enabled: true }),
    );
    const created = await env.host.create(urn, on.inputs);
    expect(record(app.id).analytics_enabled).toBe(true);
    expect((await env.host.read(created.id, urn, created.properties)).properties.enabled).toBe(
      true,
    );

    record(app.id).analytics_enabled = false;
    const refreshed = await env.host.read(created.id, urn, created.properties);
    expect(refreshed.properties.enabled).toBe(false);
    expect(refreshed.inputs).toMatchObject({ enabled: false });
    expect(await env.host.diff(created.id, urn, refreshed.properties, on.inputs)).toMatchObject({
      changes: true,
      replaces: [],
    });
    await env.host.update(created.id, urn, refreshed.properties, on.inputs);
    expect(record(app.id).analytics_enabled).toBe(true);

    await env.host.delete(created.id, urn, created.properties);
    expect(record(app.id).analytics_enabled).toBe(false);
  });

  test("any other 400 from the dashboard fails the refresh with its cause, never reads as off", async () => {
    const app = await newApp("analytics-400");
    const on = await env.host.check(
      urn,
      {},
      await env.inputs("AppAnalytics", { appId: app.id, enabled: true }),
    );
    const created = await env.host.create(urn, on.inputs);
    env.emu.setFaults({
      rules: [{ route: "GET /apps/{app_id}/dashboard-data", status: 400, times: 1 }],
    });
    try {
      await expect(env.host.read(created.id, urn, created.properties)).rejects.toThrow(
        /could not read whether analytics is on .*failed with 400/,
      );
    } finally {
      env.emu.setFaults({});
    }
    expect(record(app.id).analytics_enabled).toBe(true);
    // The real "not enabled" answer still reads as off.
    record(app.id).analytics_enabled = false;
    expect((await env.host.read(created.id, urn, created.properties)).properties.enabled).toBe(
      false,
    );
  });
});
