/** The resource types this package registers (`pulumi-nodejs:dynamic/hosting:<kind>`). */
export type ResourceKind =
  | "App"
  | "CustomDomain"
  | "AppWebAccess"
  | "AppAnalytics"
  | "VmStart"
  | "DatabaseSetupRetry"
  | "BackupDeletion";
