import * as pulumi from "@pulumi/pulumi";

/*
 * A user's unit tests: under `pulumi.runtime.setMocks` every data source and action function
 * asks `mocks.call` (token `hosting:index:<function>`, the arguments as written) and returns
 * what it answers, with no service and no `hosting:*` config. Bad arguments still fail first.
 */

const calls: Array<{ token: string; inputs: Record<string, unknown> }> = [];
const answers: Record<string, unknown> = {
  getDatabases: [{ id: "d1", name: "orders", serviceType: "postgres" }],
  getDatabase: { id: "d1", name: "orders", serviceType: "postgres" },
  getDatabaseConnection: {
    databaseId: "d1",
    connectionUrl: "postgres://u:pw@h/db",
    visualizerUrl: "",
  },
  getRuntimeVersions: [],
  getApps: [
    { id: "a1", name: "web" },
    { id: "a2", name: "api" },
  ],
  getApp: { id: "a1", name: "web" },
  getAppDeployments: [{ id: "dep1", appId: "a1" }],
  getAppMetrics: { ram: [1], vcpu: [2], storage: 3, networkReceive: [], networkSend: [] },
  getAppDashboard: { averageRps: 1.5, totalRequests: 10 },
  getBackupDownloadUrl: { url: "https://files.example/backup?sig=secret" },
  retryDatabaseSetup: { message: "retrying" },
  startVm: { message: "starting" },
  deleteBackup: { message: "deleted" },
};

pulumi.runtime.setMocks(
  {
    newResource: (args) => ({ id: `${args.name}-id`, state: args.inputs }),
    call: (args) => {
      calls.push({ token: args.token, inputs: args.inputs });
      return answers[args.token.replace(/^hosting:index:/, "")] as Record<string, unknown>;
    },
  },
  "project",
  "stack",
  false,
);

// eslint-disable-next-line @typescript-eslint/no-require-imports
const hosting = require("../../src") as typeof import("../../src");
const value = <T>(o: pulumi.Output<T>) => new Promise<T>((resolve) => o.apply(resolve));

beforeEach(() => {
  calls.length = 0;
});

test("with no hosting:* config or environment at all", () => {
  expect(pulumi.runtime.allConfig()).toEqual({});
  // The test environment's own: the package's caches in test/.work, the tools' folder recorded.
  const ours = ["HOSTING_CACHE_DIR", "HOSTING_TOOL_CACHE"];
  const set = Object.keys(process.env).filter((k) => k.startsWith("HOSTING_"));
  expect(set.filter((k) => !ours.includes(k))).toEqual([]);
});

test.each([
  [
    "getDatabases",
    () => hosting.getDatabases({ serviceType: "postgres" }),
    { serviceType: "postgres" },
  ],
  [
    "getDatabase",
    () => hosting.getDatabase({ name: "orders", account: "team" }),
    { name: "orders", account: "team" },
  ],
  ["getRuntimeVersions", () => hosting.getRuntimeVersions(), {}],
  ["getApps", () => hosting.getApps(), {}],
  ["getApp", () => hosting.getApp({ id: "a1" }), { id: "a1" }],
  ["getAppDeployments", () => hosting.getAppDeployments({ appId: "a1" }), { appId: "a1" }],
  [
    "getAppMetrics",
    () => hosting.getAppMetrics({ appId: "a1", minutes: 5 }),
    { appId: "a1", minutes: 5 },
  ],
  [
    "getAppDashboard",
    () => hosting.getAppDashboard({ appId: "a1", minutes: 5 }),
    { appId: "a1", minutes: 5 },
  ],
  [
    "retryDatabaseSetup",
    () => hosting.retryDatabaseSetup({ databaseId: "d1" }),
    { databaseId: "d1" },
  ],
  ["startVm", () => hosting.startVm({ vmId: "v1" }), { vmId: "v1" }],
  [
    "deleteBackup",
    () => hosting.deleteBackup({ projectId: "d1", backupId: "b1" }),
    { projectId: "d1", backupId: "b1" },
  ],
])(
  "%s asks mocks.call with its token and arguments, and returns the answer",
  async (fn, call, args) => {
    expect(await call()).toEqual(answers[fn]);
    expect(calls).toEqual([{ token: `hosting:index:${fn}`, inputs: args }]);
  },
);

test("secret fields stay secret Outputs: getDatabaseConnection and getBackupDownloadUrl", async () => {
  const conn = await hosting.getDatabaseConnection({ databaseId: "d1" });
  expect(calls[0]).toEqual({
    token: "hosting:index:getDatabaseConnection",
    inputs: { databaseId: "d1" },
  });
  expect(await pulumi.isSecret(conn.connectionUrl)).toBe(true);
  expect(await value(conn.connectionUrl)).toBe("postgres://u:pw@h/db");
  const backup = await hosting.getBackupDownloadUrl({ projectId: "d1", backupId: "b1" });
  expect(await pulumi.isSecret(backup.url)).toBe(true);
  expect(await value(backup.url)).toBe("https://files.example/backup?sig=secret");
});

test("the Output forms go through the mocks too", async () => {
  const apps = hosting.getAppsOutput();
  expect((await value(apps)).map((a) => a.name)).toEqual(["web", "api"]);
  expect(calls.map((c) => c.token)).toEqual(["hosting:index:getApps"]);
});

test("bad arguments fail as in a real run, before the mocks are asked", async () => {
  await expect(hosting.getAppMetrics({ appId: "a1", minutes: 0 })).rejects.toMatchObject({
    property: "minutes",
  });
  expect(calls).toEqual([]);
});
