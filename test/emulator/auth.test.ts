import { request } from "undici";
import { signJwt } from "../../src/emulator/jwt";
import { newApp, useEmulator } from "../helpers/emulator";

const env = useEmulator({ setupDelayMs: 0 });

async function get(path: string, authorization?: string) {
  const res = await request(`${env.emu.url}${path}`, {
    headers: authorization ? { authorization } : {},
  });
  return { status: res.statusCode, body: (await res.body.json()) as { error?: string } };
}

describe("authentication", () => {
  test("a missing token is 401 with an error body", async () => {
    const r = await get("/apps");
    expect(r.status).toBe(401);
    expect(r.body.error).toMatch(/missing bearer token/);
  });
  test("a malformed header or token is 401", async () => {
    expect((await get("/apps", "Token abc")).status).toBe(401);
    expect((await get("/apps", "Bearer not-a-jwt")).body.error).toMatch(/not a JWT/);
  });
  test("an expired token is 401", async () => {
    const t = env.emu.issueToken(undefined, { expiresInSeconds: -5 });
    expect((await get("/apps", `Bearer ${t}`)).body.error).toMatch(/expired/);
  });
  test("a token signed with another key is 401", async () => {
    const t = signJwt({ sub: env.emu.users[0].id, exp: Date.now() / 1000 + 60 }, "other-key");
    expect((await get("/apps", `Bearer ${t}`)).body.error).toMatch(/signature/);
  });
  test("a valid token is served", async () => {
    expect((await get("/apps", `Bearer ${env.emu.issueToken()}`)).status).toBe(200);
  });
});

describe("each user sees only their own resources", () => {
  test("every endpoint answers 404 for another user's IDs, and lists leave them out", async () => {
    const alice = env.client({ user: "alice" });
    const bob = env.client({ user: "bob" });
    const { id: appId } = await newApp(alice, "private", {}, {});
    await alice.setAnalytics(appId, true);
    const aliceId = env.emu.users[0].id;
    const db = env.emu.world.databases.find((d) => d.user_id === aliceId && !d.workspace_id)!;
    const vm = env.emu.world.vms.find((v) => v.user_id === aliceId)!;
    const backup = env.emu.world.backups.find((b) => b.project_id === db.id)!;
    const calls: Array<[string, () => Promise<unknown>]> = [
      ["attachCustomDomain", () => bob.attachCustomDomain(appId, "x.pointed.test")],
      ["removeCustomDomain", () => bob.removeCustomDomain(appId)],
      ["getDashboardData", () => bob.getDashboardData(appId, { minutes: 5 })],
      ["listDeployments", () => bob.listDeployments(appId)],
      ["getAppMetrics", () => bob.getAppMetrics(appId, { minutes: 5 })],
      ["disableWebAccess", () => bob.disableWebAccess(appId)],
      ["enableWebAccess", () => bob.enableWebAccess(appId)],
      ["setAnalytics", () => bob.setAnalytics(appId, false)],
      ["deleteApp", () => bob.deleteApp(appId)],
      ["getDatabaseConnection", () => bob.getDatabaseConnection(db.id)],
      ["retryDatabaseSetup", () => bob.retryDatabaseSetup(db.id)],
      ["getBackupDownloadUrl", () => bob.getBackupDownloadUrl(db.id, backup.id)],
      ["deleteBackup", () => bob.deleteBackup(db.id, backup.id)],
      ["startVm", () => bob.startVm(vm.id)],
    ];
    for (const [name, call] of calls) {
      const err = await call().catch((e: unknown) => e);
      expect([name, (err as { status?: number }).status]).toEqual([name, 404]);
    }
    expect((await bob.listApps()).some((a) => a.app.id === appId)).toBe(false);
    expect((await bob.listDatabases()).some((d) => d.database.id === db.id)).toBe(false);
    // Nothing of alice's changed.
    const app = env.emu.world.apps.find((a) => a.id === appId)!;
    expect(app.analytics_enabled).toBe(true);
    expect(app.web_enabled).toBe(true);
  });

  test("workspace databases are listed for members only", async () => {
    const ws = env.emu.world.workspaces[0];
    const members = await env.client({ user: "alice" }).listDatabases({ workspaceId: ws.id });
    expect(members.map((d) => d.database.name).sort()).toEqual(["team-postgres", "team-redis"]);
    const outsider = await env
      .client({ user: "bob" })
      .listDatabases({ workspaceId: ws.id })
      .catch((e: unknown) => e);
    expect(outsider).toMatchObject({ status: 404 });
  });
});
