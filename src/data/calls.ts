import * as actionCalls from "./action-calls";
import * as appCalls from "./app-calls";
import * as backupCalls from "./backup-calls";
import * as databaseCalls from "./database-calls";
import * as runtimeVersionCalls from "./runtime-version-calls";

/*
 * What each data source and action does, by its public name; loaded on the first call (see
 * data-source.ts). Each takes its arguments unchecked and checks them first.
 */
export const calls = {
  getApps: appCalls.getApps,
  getApp: appCalls.getApp,
  getAppDeployments: appCalls.getAppDeployments,
  getAppMetrics: appCalls.getAppMetrics,
  getAppDashboard: appCalls.getAppDashboard,
  getDatabases: databaseCalls.getDatabases,
  getDatabase: databaseCalls.getDatabase,
  getDatabaseConnection: databaseCalls.getDatabaseConnection,
  getBackupDownloadUrl: backupCalls.getBackupDownloadUrl,
  getRuntimeVersions: runtimeVersionCalls.getRuntimeVersions,
  retryDatabaseSetup: actionCalls.retryDatabaseSetup,
  startVm: actionCalls.startVm,
  deleteBackup: actionCalls.deleteBackup,
};

export type Calls = typeof calls;
