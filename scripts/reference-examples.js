/*
 * The reference pages' data-source examples: complete programs (the types test compiles every
 * ```ts block of docs/reference), one per exported function. The generator fails on a data
 * source that has none here, so a new getX cannot ship without one.
 */
module.exports = {
  getApps: `export const appNames = hosting.getAppsOutput().apply((apps) => apps.map((a) => a.name));
export async function count() {
  return (await hosting.getApps()).length;
}`,
  getApp: `export async function webSubdomain() {
  const web = await hosting.getApp({ name: "web" });
  return web.subdomain;
}
export const webId = hosting.getAppOutput({ name: "web" }).id;`,
  getAppDeployments: `const web = hosting.getAppOutput({ name: "web" });
export const lastDeploy = hosting
  .getAppDeploymentsOutput({ appId: web.id })
  .apply((deploys) => deploys[0]?.createdAt);
export async function deployCount(appId: string) {
  return (await hosting.getAppDeployments({ appId })).length;
}`,
  getAppMetrics: `export async function ramLastHour(appId: string) {
  const metrics = await hosting.getAppMetrics({ appId, minutes: 60 });
  return metrics.ram;
}
const web = hosting.getAppOutput({ name: "web" });
export const storage = hosting.getAppMetricsOutput({ appId: web.id, minutes: 60 }).storage;`,
  getAppDashboard: `const app = new hosting.App("web", { source: "./app", name: "web" });
const analytics = new hosting.AppAnalytics("analytics", { appId: app.id, enabled: true });
// Analytics must be on first: depend on the resource that turns it on.
const traffic = hosting.getAppDashboardOutput(
  { appId: app.id, minutes: 60 },
  { dependsOn: [analytics] },
);
export const totalRequests = traffic.totalRequests;
export async function averageRps(appId: string) {
  return (await hosting.getAppDashboard({ appId, minutes: 60 })).averageRps;
}`,
  getDatabases: `export const postgres = hosting
  .getDatabasesOutput({ serviceType: "postgres" })
  .apply((dbs) => dbs.map((d) => d.name));
export async function count() {
  return (await hosting.getDatabases()).length;
}`,
  getDatabase: `export const ordersId = hosting.getDatabaseOutput({ name: "orders" }).id;
export async function ordersEngine() {
  return (await hosting.getDatabase({ name: "orders" })).serviceType;
}`,
  getDatabaseConnection: `const orders = hosting.getDatabaseOutput({ name: "orders" });
// A connection URL carries a password: it is a secret.
export const url = hosting.getDatabaseConnectionOutput({ databaseId: orders.id }).connectionUrl;
export async function host(databaseId: string) {
  return (await hosting.getDatabaseConnection({ databaseId })).connectionUrl;
}`,
  getBackupDownloadUrl: `const config = new pulumi.Config();
export const download = hosting.getBackupDownloadUrlOutput({
  projectId: config.require("databaseId"),
  backupId: config.require("backupId"),
}).url;
export async function link(projectId: string, backupId: string) {
  return (await hosting.getBackupDownloadUrl({ projectId, backupId })).url;
}`,
  getRuntimeVersions: `export const nodeVersions = hosting
  .getRuntimeVersionsOutput({ language: "node" })
  .apply((versions) => versions.map((v) => v.version));
export async function languages() {
  return [...new Set((await hosting.getRuntimeVersions()).map((v) => v.language))];
}`,
  pickRuntimeVersion: `const node = hosting
  .getRuntimeVersionsOutput({ language: "node" })
  .apply((versions) => hosting.pickRuntimeVersion(versions, { language: "node" }));
// The version object is a runtime as it is: its other fields are ignored.
new hosting.App("web", { source: "./app", name: "web", runtime: node });`,
};
