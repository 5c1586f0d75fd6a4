import { makeZip, manifest } from "../helpers/zip";
import { newApp as makeApp, useEmulator } from "../helpers/emulator";

const env = useEmulator({ setupDelayMs: 0, minBackupRetentionMs: 24 * 3600_000 });

/** An app of its own for each test that needs one: no test relies on another's. */
async function newApp(name: string): Promise<string> {
  const server = { "server.js": "require('http').createServer().listen(8080)" };
  return (await makeApp(env.client(), name, { ram: 1024, entrypoint: "server.js" }, server)).id;
}

describe("HostingClient: every operation against the emulator", () => {
  test("createApp uploads the archive and env, listApps shows the app with its settings", async () => {
    const c = env.client();
    const zip = await makeZip({
      "hosting.json": manifest({
        name: "shop",
        ram: 1024,
        entrypoint: "server.js",
        subdomain: "shop-x",
      }),
      "server.js": "require('http').createServer().listen(8080)",
    });
    const created = await c.createApp({
      archivePath: zip,
      env: { NODE_ENV: "production", MSG: "a b=c" },
    });
    const appId = created.id;
    expect(appId).toMatch(/^[0-9a-f-]{36}$/);
    const apps = await c.listApps();
    const entry = apps.find((a) => a.app.id === appId)!;
    expect(entry.app).toMatchObject({
      name: "shop",
      ram: 1024,
      entrypoint: "server.js",
      subdomain: "shop-x",
    });
    expect(entry.project_info?.ram.length).toBeGreaterThan(0);
    const record = env.emu.world.apps.find((a) => a.id === appId)!;
    expect(record.env_keys).toEqual(["MSG", "NODE_ENV"]);
  });

  test("listRuntimeVersions returns every language, or one with the filter", async () => {
    const c = env.client();
    const all = await c.listRuntimeVersions();
    expect(new Set(all.map((v) => v.language)).size).toBeGreaterThan(2);
    const node = await c.listRuntimeVersions({ language: "node" });
    expect(node.every((v) => v.language === "node")).toBe(true);
    expect(node.filter((v) => v.recommended)).toHaveLength(1);
    expect(node.filter((v) => v.latest)).toHaveLength(1);
  });

  test("attachCustomDomain returns the hostname with SSL and ownership records and the CNAME", async () => {
    const appId = await newApp("domained");
    const res = await env.client().attachCustomDomain(appId, "www.shop.pointed.test");
    expect(res.custom_hostname.hostname).toBe("www.shop.pointed.test");
    expect(res.custom_hostname.ssl?.validation_records?.length).toBeGreaterThan(0);
    expect(res.custom_hostname.ownership_verification?.txt_value).toBeTruthy();
    expect(res.cname).toBeTruthy();
    const apps = await env.client().listApps();
    expect(apps.find((a) => a.app.id === appId)!.app.custom_domain).toBe("www.shop.pointed.test");
  });

  test("removeCustomDomain detaches it", async () => {
    const appId = await newApp("detached");
    await env.client().attachCustomDomain(appId, "www.detached.pointed.test");
    await env.client().removeCustomDomain(appId);
    const apps = await env.client().listApps();
    expect(apps.find((a) => a.app.id === appId)!.app.custom_domain).toBeFalsy();
  });

  test("setAnalytics then getDashboardData returns the traffic summary", async () => {
    const appId = await newApp("analysed");
    const c = env.client();
    await c.setAnalytics(appId, true);
    const data = await c.getDashboardData(appId, { minutes: 30 });
    expect(data.rps_timeseries).toHaveLength(30);
    expect(typeof data.total_requests).toBe("number");
  });

  test("getAppMetrics returns one point per step over the window", async () => {
    const appId = await newApp("measured");
    const m = await env.client().getAppMetrics(appId, { minutes: 15 });
    expect(m.ram).toHaveLength(15);
    expect(m.network_send).toHaveLength(15);
  });

  test("listDeployments shows the upload", async () => {
    const appId = await newApp("deployed");
    const deps = await env.client().listDeployments(appId);
    expect(deps).toHaveLength(1);
    expect(deps[0].app_id).toBe(appId);
  });

  test("disableWebAccess and enableWebAccess flip web access", async () => {
    const appId = await newApp("toggled");
    const c = env.client();
    expect((await c.disableWebAccess(appId)).message).toMatch(/disabled/);
    expect(env.emu.world.apps.find((a) => a.id === appId)!.web_enabled).toBe(false);
    await c.enableWebAccess(appId);
    expect(env.emu.world.apps.find((a) => a.id === appId)!.web_enabled).toBe(true);
  });

  test("listDatabases, with and without a workspace", async () => {
    const c = env.client();
    const own = await c.listDatabases();
    expect(new Set(own.map((d) => d.database.service_type))).toEqual(
      new Set(["postgres", "mysql", "mongo", "redis"]),
    );
    const ws = env.emu.world.workspaces[0].id;
    const team = await c.listDatabases({ workspaceId: ws });
    expect(team.length).toBeGreaterThan(0);
    expect(team.every((d) => d.database.workspace_id === ws)).toBe(true);
  });

  test("getDatabaseConnection and retryDatabaseSetup", async () => {
    const c = env.client();
    const [db] = await c.listDatabases();
    const conn = await c.getDatabaseConnection(db.database.id);
    expect(conn.connection_url).toMatch(/^[a-z]+:\/\/.+@/);
    const record = env.emu.world.databases.find((d) => d.id === db.database.id)!;
    record.replica_status = record.replica_status.map(() => "stopped");
    const lastSetup = (record.last_setup_at = Date.now() - 86400_000);
    expect((await c.retryDatabaseSetup(db.database.id)).message).toBe(
      `setup of ${record.name} restarted`,
    );
    expect(record.replica_status.length).toBeGreaterThan(0);
    expect(record.replica_status.every((s) => s === "pending")).toBe(true);
    expect(record.last_setup_at).toBeGreaterThan(lastSetup);
  });

  test("getBackupDownloadUrl gives a signed URL that downloads; deleteBackup of an old one works", async () => {
    const c = env.client();
    const [db] = await c.listDatabases();
    const backups = env.emu.world.backups.filter((b) => b.project_id === db.database.id);
    const oldest = backups.reduce((a, b) => (a.created_at < b.created_at ? a : b));
    const { url } = await c.getBackupDownloadUrl(db.database.id, oldest.id);
    const res = await fetch(url);
    expect(res.status).toBe(200);
    const tampered = await fetch(
      url.replace(/signature=(.)/, (_m, c: string) => `signature=${c === "0" ? "1" : "0"}`),
    );
    expect(tampered.status).toBe(403);
    expect((await c.deleteBackup(db.database.id, oldest.id)).message).toBe("backup deleted");
    expect(env.emu.world.backups.some((b) => b.id === oldest.id)).toBe(false);
    expect(env.emu.world.backups.filter((b) => b.project_id === db.database.id)).toHaveLength(
      backups.length - 1,
    );
  });

  test("startVm starts the user's VM", async () => {
    const vm = env.emu.world.vms.find((v) => v.user_id === env.emu.users[0].id)!;
    vm.running = false;
    expect((await env.client().startVm(vm.id)).message).toBe(`vm ${vm.name} is starting`);
    expect(vm.running).toBe(true);
  });

  test("deleteApp removes the app", async () => {
    const appId = await newApp("deleted");
    const c = env.client();
    await c.deleteApp(appId);
    expect((await c.listApps()).some((a) => a.app.id === appId)).toBe(false);
  });
});
