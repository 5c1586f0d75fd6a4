/**
 * Pulumi resources ({@link App}, {@link CustomDomain}, {@link AppWebAccess}, {@link AppAnalytics})
 * and data sources (`getX` / `getXOutput`) for the Hosting Management API.
 * @module pulumi-hosting
 */
/* eslint-disable @typescript-eslint/no-require-imports */
/*
 * Resource classes and data-source signatures load at once; what talks to the API (the data
 * sources' implementations, the client, the provider handlers) loads on first use, so a program
 * that only declares resources does not pay for undici, zod or form-data.
 */
import { lazyClass, lazyFunction, once } from "./base";

export { App, type AppArgs, type AppRuntime, type AppRuntimeOutput } from "./provider/app/resource";
export {
  CustomDomain,
  type CustomDomainArgs,
  type DnsRecord,
  type CustomDomainSsl,
  type ValidationRecordOutput,
} from "./provider/custom-domain/resource";
export { AppWebAccess, type AppWebAccessArgs } from "./provider/web-access/resource";
export { AppAnalytics, type AppAnalyticsArgs } from "./provider/analytics/resource";
export { VmStart, type VmStartArgs } from "./provider/vm-start/resource";
export {
  DatabaseSetupRetry,
  type DatabaseSetupRetryArgs,
} from "./provider/database-setup-retry/resource";
export { BackupDeletion, type BackupDeletionArgs } from "./provider/backup-deletion/resource";
export {
  getDatabases,
  getDatabasesOutput,
  getDatabase,
  getDatabaseOutput,
  getDatabaseConnection,
  getDatabaseConnectionOutput,
  type GetDatabasesArgs,
  type GetDatabasesOutputArgs,
  type GetDatabaseArgs,
  type GetDatabaseOutputArgs,
  type GetDatabaseConnectionArgs,
  type GetDatabaseConnectionOutputArgs,
} from "./data/databases";
export {
  getRuntimeVersions,
  getRuntimeVersionsOutput,
  pickRuntimeVersion,
  type GetRuntimeVersionsArgs,
  type GetRuntimeVersionsOutputArgs,
  type PickRuntimeVersionOptions,
} from "./data/runtime-versions";
export {
  getApps,
  getAppsOutput,
  getApp,
  getAppOutput,
  getAppDeployments,
  getAppDeploymentsOutput,
  getAppMetrics,
  getAppMetricsOutput,
  getAppDashboard,
  getAppDashboardOutput,
  type GetAppsArgs,
  type GetAppsOutputArgs,
  type GetAppArgs,
  type GetAppOutputArgs,
  type GetAppDeploymentsArgs,
  type GetAppDeploymentsOutputArgs,
  type GetAppWindowArgs,
  type GetAppWindowOutputArgs,
} from "./data/apps";
export type { AccountOption, AccountOptionInput } from "./data/account-option";
export type { DataSourceFunction, DataSourceOutputFunction } from "./data/function-types";
export type { AccountInput } from "./provider/account-input";
export {
  getBackupDownloadUrl,
  getBackupDownloadUrlOutput,
  type GetBackupDownloadUrlArgs,
  type GetBackupDownloadUrlOutputArgs,
} from "./data/backups";
export type { ById, ByIdInput } from "./data/pick-one";
export type {
  AppDashboard,
  AppInfo,
  AppMetrics,
  BackupDownloadUrl,
  DatabaseConnection,
  DatabaseInfo,
  DeploymentInfo,
  UsageSeries,
} from "./data/results";
export type {
  DashboardSeriesPoint,
  DatabaseServiceType,
  ReplicaStatus,
  RuntimeVersion,
  ProjectType,
} from "./api";
export {
  retryDatabaseSetup,
  startVm,
  deleteBackup,
  type RetryDatabaseSetupArgs,
  type StartVmArgs,
  type DeleteBackupArgs,
} from "./data/actions";
export { HostingError, HostingApiError, HostingInputError, HostingConfigError } from "./api/errors";

const client = once(() => require("./api") as typeof import("./api"));
/**
 * The typed client of `pulumi-hosting/client`, also reachable from the package root. It loads
 * (with undici; form-data with its first upload) when first constructed, so declaring resources
 * does not pay for it.
 */
export const HostingClient = lazyClass(client, "HostingClient");
/** An instance of {@link HostingClient}. */
export type HostingClient = import("./api").HostingClient;

const handlers = once(() => require("./provider/handlers") as typeof import("./provider/handlers"));
/** @internal Loaded by each resource's `__provider` text inside Pulumi's provider host. */
export const providerHandlers = lazyFunction(handlers, "providerHandlers");
