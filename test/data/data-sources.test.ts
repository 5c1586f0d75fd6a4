import * as pulumi from "@pulumi/pulumi";
import * as hosting from "../../src";
import { useEmulator } from "../helpers/emulator";
import { useProgramEnv } from "../helpers/program-env";

const env = useEmulator({ setupDelayMs: 0 });
const value = <T>(o: { apply<U>(f: (t: T) => U): unknown }) =>
  new Promise<T>((resolve) => o.apply((v) => resolve(v)));

useProgramEnv(env);

describe("data sources", () => {
  test("getDatabases: camelCase, filtered by service type, or a workspace's", async () => {
    const all = await hosting.getDatabases();
    expect(all).toHaveLength(4);
    expect(all[0]).toHaveProperty("serviceType");
    expect(all[0]).toHaveProperty("replicaStatus");
    expect(all[0].projectInfo).toHaveProperty("networkReceive");
    const redis = await hosting.getDatabases({ serviceType: "redis" });
    expect(redis.map((d) => d.serviceType)).toEqual(["redis"]);
    const team = await hosting.getDatabases({ workspaceId: env.emu.world.workspaces[0].id });
    expect(team.map((d) => d.name).sort()).toEqual(["team-postgres", "team-redis"]);
  });

  test("bad arguments fail before any request, naming the property", async () => {
    env.emu.resetStats();
    await expect(hosting.getDatabases({ serviceType: "oracle" as "redis" })).rejects.toMatchObject({
      property: "serviceType",
      message: expect.stringMatching(/one of postgres, mysql, mongo, redis/),
    });
    await expect(hosting.getAppMetrics({ appId: "x", minutes: 0 })).rejects.toMatchObject({
      property: "minutes",
    });
    // An id that would leave its path is named by the argument, not the wire parameter.
    await expect(hosting.getAppDeployments({ appId: "../apps" })).rejects.toMatchObject({
      property: "appId",
      message: expect.stringMatching(
        /^getAppDeployments: appId: .*not a valid identifier.*pass app\.id$/,
      ),
    });
    await expect(
      hosting.getBackupDownloadUrl({ projectId: "p", backupId: "" }),
    ).rejects.toMatchObject({ property: "backupId" });
    await expect(hosting.getDatabaseConnection({ databaseId: "a/b" })).rejects.toMatchObject({
      property: "databaseId",
    });
    expect(env.emu.stats().total).toBe(0);
  });

  test("getDatabase by name or id; a clear error when there is none", async () => {
    const pg = await hosting.getDatabase({ name: "alice-postgres" });
    expect((await hosting.getDatabase({ id: pg.id })).name).toBe("alice-postgres");
    await expect(hosting.getDatabase({ name: "nope" })).rejects.toThrow(
      /no database with name "nope"; databases here: /,
    );
    // The other key left undefined, as the ById type allows (e.g. from optional config).
    expect((await hosting.getDatabase({ id: pg.id, name: undefined })).name).toBe("alice-postgres");
    expect((await hosting.getDatabase({ name: pg.name, id: undefined })).id).toBe(pg.id);
    await expect(
      hosting.getApp({ id: "a", name: "b" } as unknown as hosting.GetAppArgs),
    ).rejects.toThrow(/pass exactly one of \{ id \} or \{ name \}/);
  });

  test("getDatabaseConnection: the URL is a Pulumi secret", async () => {
    const pg = await hosting.getDatabase({ name: "alice-postgres" });
    const conn = await hosting.getDatabaseConnection({ databaseId: pg.id });
    expect(await pulumi.isSecret(conn.connectionUrl)).toBe(true);
    expect(await value(conn.connectionUrl)).toMatch(/^postgres:\/\//);
    // The Output form, as the README reads it: `.connectionUrl` of the Output stays a secret.
    const out = hosting.getDatabaseConnectionOutput({ databaseId: pulumi.output(pg.id) });
    expect(await pulumi.isSecret(out.connectionUrl)).toBe(true);
    expect(await value(out.connectionUrl)).toMatch(/^postgres:\/\//);
  });

  test("getRuntimeVersions and pickRuntimeVersion", async () => {
    const versions = await hosting.getRuntimeVersions({ language: "node" });
    expect(hosting.pickRuntimeVersion(versions, { language: "node" }).recommended).toBe(true);
    expect(
      hosting.pickRuntimeVersion(versions, { language: "node", prefer: "latest" }).latest,
    ).toBe(true);
    expect(() => hosting.pickRuntimeVersion(versions, { language: "cobol" })).toThrow(
      /available: node/,
    );
    const out = hosting.getRuntimeVersionsOutput({ language: "python" });
    expect((await value(out)).every((v) => v.language === "python")).toBe(true);
  });

  test("apps: getApps, getApp, deployments, metrics; the dashboard points at AppAnalytics when off", async () => {
    const res = await fetch(`${env.emu.url}/__emulator/apps`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ count: 2, prefix: "ds" }),
    });
    const { ids } = (await res.json()) as { ids: string[] };
    expect((await hosting.getApps()).length).toBeGreaterThanOrEqual(2);
    const app = await hosting.getApp({ name: "ds-0" });
    expect(app.id).toBe(ids[0]);
    expect(await hosting.getAppDeployments({ appId: app.id })).toEqual([]);
    expect((await hosting.getAppMetrics({ appId: app.id, minutes: 10 })).networkSend).toHaveLength(
      10,
    );
    await expect(hosting.getAppDashboard({ appId: app.id, minutes: 10 })).rejects.toThrow(
      /Analytics must be on: add new hosting.AppAnalytics/,
    );
    env.emu.world.apps.find((a) => a.id === app.id)!.analytics_enabled = true;
    expect((await hosting.getAppDashboard({ appId: app.id, minutes: 10 })).averageRps).toEqual(
      expect.any(Number),
    );
  });

  test("getBackupDownloadUrl is a secret; actions run", async () => {
    const pg = await hosting.getDatabase({ name: "alice-postgres" });
    const backups = env.emu.world.backups.filter((b) => b.project_id === pg.id);
    const { url } = await hosting.getBackupDownloadUrl({
      projectId: pg.id,
      backupId: backups[0].id,
    });
    expect(await pulumi.isSecret(url)).toBe(true);
    const record = env.emu.world.databases.find((d) => d.id === pg.id)!;
    record.replica_status = record.replica_status.map(() => "stopped");
    expect((await hosting.retryDatabaseSetup({ databaseId: pg.id })).message).toBe(
      "setup of alice-postgres restarted",
    );
    expect(record.replica_status.every((s) => s === "pending")).toBe(true);
    const vm = env.emu.world.vms.find((v) => v.user_id === env.emu.users[0].id)!;
    vm.running = false;
    expect((await hosting.startVm({ vmId: vm.id })).message).toBe(`vm ${vm.name} is starting`);
    expect(vm.running).toBe(true);
    const young = backups.reduce((a, b) => (a.created_at > b.created_at ? a : b));
    await expect(
      hosting.deleteBackup({ projectId: pg.id, backupId: young.id }),
    ).rejects.toMatchObject({
      code: "HOSTING_BACKUP_RETENTION",
    });
  });

  test("an action whose reply was lost says it may have taken effect, and it did", async () => {
    const vm = env.emu.world.vms.find((v) => v.user_id === env.emu.users[0].id)!;
    vm.running = false;
    env.emu.setFaults({
      rules: [{ route: "POST /vms/{vm_id}/start", commitThenStatus: 502, times: 1 }],
    });
    try {
      await expect(hosting.startVm({ vmId: vm.id })).rejects.toMatchObject({
        mayHaveTakenEffect: true,
        message: expect.stringMatching(
          /may have taken effect: check whether the VM is running \(the API reports no VM state\) before retrying/,
        ),
      });
      expect(vm.running).toBe(true);
    } finally {
      env.emu.setFaults({});
    }
  });

  test("without config or env, the error says how to set both", async () => {
    const saved = process.env.HOSTING_API_URL;
    delete process.env.HOSTING_API_URL;
    try {
      await expect(hosting.getApps()).rejects.toThrow(
        /pulumi config set hosting:apiUrl <url>.*HOSTING_API_URL/,
      );
    } finally {
      process.env.HOSTING_API_URL = saved;
    }
  });
});
