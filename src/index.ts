/* eslint-disable @typescript-eslint/no-require-imports */
/*
 * The package root. Resource classes load at once (a program declares them); everything that
 * talks to the API (data sources, the client, the provider handlers) loads on first call, so a
 * program that only declares resources does not pay for undici, zod or form-data.
 */
import { lazyClass, lazyFunction, once } from "./lazy";

export { App, type AppArgs, type AppRuntime } from "./provider/app/resource";
export {
  CustomDomain,
  type CustomDomainArgs,
  type DnsRecord,
  type ValidationRecordOutput,
} from "./provider/custom-domain/resource";
export { AppWebAccess, type AppWebAccessArgs } from "./provider/web-access/resource";
export { AppAnalytics, type AppAnalyticsArgs } from "./provider/analytics/resource";
export { VmStart, type VmStartArgs } from "./provider/actions/vm-start";
export {
  DatabaseSetupRetry,
  type DatabaseSetupRetryArgs,
} from "./provider/actions/database-setup-retry";
export { BackupDeletion, type BackupDeletionArgs } from "./provider/actions/backup-deletion";

const databases = once(() => require("./data/databases") as typeof import("./data/databases"));
export const getDatabases = lazyFunction(databases, "getDatabases");
export const getDatabasesOutput = lazyFunction(databases, "getDatabasesOutput");
export const getDatabase = lazyFunction(databases, "getDatabase");
export const getDatabaseOutput = lazyFunction(databases, "getDatabaseOutput");
export const getDatabaseConnection = lazyFunction(databases, "getDatabaseConnection");
export const getDatabaseConnectionOutput = lazyFunction(databases, "getDatabaseConnectionOutput");
export type {
  DatabaseInfo,
  DatabaseConnection,
  GetDatabasesArgs,
  GetDatabaseArgs,
} from "./data/databases";

const runtimes = once(
  () => require("./data/runtime-versions") as typeof import("./data/runtime-versions"),
);
export const getRuntimeVersions = lazyFunction(runtimes, "getRuntimeVersions");
export const getRuntimeVersionsOutput = lazyFunction(runtimes, "getRuntimeVersionsOutput");
export const pickRuntimeVersion = lazyFunction(runtimes, "pickRuntimeVersion");
export type { RuntimeVersion } from "./data/runtime-versions";

const apps = once(() => require("./data/apps") as typeof import("./data/apps"));
export const getApps = lazyFunction(apps, "getApps");
export const getAppsOutput = lazyFunction(apps, "getAppsOutput");
export const getApp = lazyFunction(apps, "getApp");
export const getAppOutput = lazyFunction(apps, "getAppOutput");
export const getAppDeployments = lazyFunction(apps, "getAppDeployments");
export const getAppDeploymentsOutput = lazyFunction(apps, "getAppDeploymentsOutput");
export const getAppMetrics = lazyFunction(apps, "getAppMetrics");
export const getAppMetricsOutput = lazyFunction(apps, "getAppMetricsOutput");
export const getAppDashboard = lazyFunction(apps, "getAppDashboard");
export const getAppDashboardOutput = lazyFunction(apps, "getAppDashboardOutput");
export type { AppInfo, DeploymentInfo, AppMetrics, AppDashboard } from "./data/apps";

const backups = once(() => require("./data/backups") as typeof import("./data/backups"));
export const getBackupDownloadUrl = lazyFunction(backups, "getBackupDownloadUrl");
export const getBackupDownloadUrlOutput = lazyFunction(backups, "getBackupDownloadUrlOutput");

export type { AccountOption } from "./data/connection";
export type { AccountInput } from "./provider/account-input";

const actions = once(() => require("./data/actions") as typeof import("./data/actions"));
export const retryDatabaseSetup = lazyFunction(actions, "retryDatabaseSetup");
export const startVm = lazyFunction(actions, "startVm");
export const deleteBackup = lazyFunction(actions, "deleteBackup");

export { HostingError } from "./api/errors/hosting-error";
export { HostingApiError } from "./api/errors/api-error";
export { HostingInputError } from "./api/errors/input-error";
export { HostingConfigError } from "./api/errors/config-error";
const client = once(() => require("./api/client") as typeof import("./api/client"));
export const HostingClient = lazyClass(client, "HostingClient");
export type HostingClient = import("./api/client").HostingClient;

const handlers = once(() => require("./provider/handlers") as typeof import("./provider/handlers"));
/** @internal Loaded by the serialized providers inside Pulumi's provider host. */
export const providerHandlers = lazyFunction(handlers, "providerHandlers");
