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
export {
  getDatabases,
  getDatabasesOutput,
  getDatabase,
  getDatabaseOutput,
  getDatabaseConnection,
  getDatabaseConnectionOutput,
  type DatabaseInfo,
  type DatabaseConnection,
  type GetDatabasesArgs,
  type GetDatabaseArgs,
} from "./data/databases";
export {
  getRuntimeVersions,
  getRuntimeVersionsOutput,
  pickRuntimeVersion,
  type RuntimeVersion,
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
  type AppInfo,
  type DeploymentInfo,
  type AppMetrics,
  type AppDashboard,
} from "./data/apps";
export { getBackupDownloadUrl, getBackupDownloadUrlOutput } from "./data/backups";
export type { AccountOption } from "./data/connection";
export type { AccountInput } from "./provider/account-input";
export { retryDatabaseSetup, startVm, deleteBackup } from "./data/actions";
export {
  HostingClient,
  HostingError,
  HostingApiError,
  HostingInputError,
  HostingConfigError,
} from "./api";
/** @internal Loaded by the serialized providers inside Pulumi's provider host. */
export { providerHandlers } from "./provider/handlers";
