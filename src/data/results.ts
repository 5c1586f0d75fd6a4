import type * as pulumi from "@pulumi/pulumi";
import { assertType, type SameShape, type Camelize } from "../base";
import type * as wire from "../api";

/*
 * What the data sources return: the API's shapes, camelCased. Written out (not derived) so a
 * hover shows each field's meaning; the checks at the end keep them equal to the wire shapes.
 */

/** Resource usage over a window, one point per sampled step. */
export interface UsageSeries {
  /** RAM in use per step, in MB. */
  ram: number[];
  /** vCPU usage per step. */
  vcpu: number[];
  /** Storage in use, in bytes. */
  storage: number;
  /** Bytes received per step. */
  networkReceive: number[];
  /** Bytes sent per step. */
  networkSend: number[];
}

/** A managed database, as {@link getDatabases} and {@link getDatabase} return it. */
export interface DatabaseInfo {
  /** The database's id (a uuid); pass it to {@link getDatabaseConnection}. */
  id: string;
  /** The owner's user id. */
  userId?: string;
  /** Present only when the database belongs to a workspace. */
  workspaceId?: string;
  /** RAM in MB. */
  ram?: number;
  /** Number of virtual CPUs. */
  vcpu?: number;
  /** The database's name. */
  name: string;
  /** false for a database. */
  isApp?: boolean;
  /** `"database"`. */
  projectType?: wire.ProjectType;
  /** Blocked until this time (ISO 8601), or null when not blocked. */
  blockedUntil?: string | null;
  /** Why the database is blocked, or null. */
  blockedReason?: string | null;
  /** Whether setup has finished. */
  setup?: boolean;
  /** When it was created (ISO 8601). */
  createdAt?: string | null;
  /** Whether automatic backups are on. */
  autoBackup?: boolean;
  /** The database engine. */
  serviceType: wire.DatabaseServiceType;
  /** Whether the web data visualizer is on. */
  visualizer?: boolean;
  /** Size in bytes. */
  size?: number;
  /** When setup last ran (ISO 8601). */
  lastSetupAt?: string | null;
  /** The state of each replica. */
  replicaStatus: wire.ReplicaStatus[];
  /** Resource usage. */
  projectInfo: UsageSeries;
}

/** How to reach a database, as {@link getDatabaseConnection} returns it. */
export interface DatabaseConnection {
  /** The database's id. */
  databaseId: string;
  /** The connection URL. It holds the password, so it is a Pulumi secret. */
  connectionUrl: pulumi.Output<string>;
  /** The web data visualizer's URL, or "" when there is none. */
  visualizerUrl: string;
}

/** An app, as {@link getApps} and {@link getApp} return it. */
export interface AppInfo {
  // <declarations: AppInfo> written by `npm run declarations` from api/types.ts
  /** The app's id (a uuid). */
  id: string;
  /** The owner's user id. */
  userId?: string;
  /** RAM in MB. */
  ram?: number;
  /** Number of virtual CPUs. */
  vcpu?: number;
  /** The app's name. */
  name?: string;
  /** Always true for an app. */
  isApp?: boolean;
  /** Blocked until this time (ISO 8601), or null when not blocked. */
  blockedUntil?: string | null;
  /** Whether setup has finished (the app is ready). */
  setup?: boolean;
  /** When it was created (ISO 8601). */
  createdAt?: string | null;
  /** When setup last ran (ISO 8601). */
  lastSetupAt?: string | null;
  /** The platform subdomain the app is served on. */
  subdomain?: string | null;
  /** The file the runtime starts. */
  entrypoint?: string | null;
  /** Free text. */
  description?: string | null;
  /** A start command that replaces the runtime's default. */
  customCommand?: string | null;
  /** The attached custom domain, if any. */
  customDomain?: string | null;
  // </declarations>
  /** Resource usage, when the service sends it. */
  projectInfo?: UsageSeries;
}

/** One deployment of an app, as {@link getAppDeployments} returns it. */
export interface DeploymentInfo {
  /** The deployment's id. */
  id: string;
  /** The app it belongs to. */
  appId?: string;
  /** When it was made (ISO 8601). */
  createdAt?: string | null;
  /** The error it failed with, if any. */
  error?: string | null;
  /** Owner of the source repository, for git deployments. */
  owner?: string | null;
  /** Source repository name. */
  repo?: string | null;
  /** Source branch. */
  branch?: string | null;
  /** Source commit. */
  commit?: string | null;
}

/** RAM, CPU and network usage of an app over a window, as {@link getAppMetrics} returns it. */
export type AppMetrics = UsageSeries;

/** Traffic analytics of an app over a window, as {@link getAppDashboard} returns it. */
export interface AppDashboard {
  /** Requests per second over time. */
  rpsTimeseries: wire.DashboardSeriesPoint[];
  /** Request counts over time. */
  requestCountSeries: wire.DashboardSeriesPoint[];
  /** Response durations over time. */
  durationSeries: wire.DashboardSeriesPoint[];
  /** Errors over time. */
  errorSeries: wire.DashboardSeriesPoint[];
  /** Requests per browser. */
  browserData: wire.DashboardSeriesPoint[];
  /** Requests per route. */
  routeSeries: wire.DashboardSeriesPoint[];
  /** Requests per status code. */
  statusSeries: wire.DashboardSeriesPoint[];
  /** The slowest routes. */
  topSlowRoutes: wire.DashboardSeriesPoint[];
  /** The routes with the most errors. */
  topErrorRoutes: wire.DashboardSeriesPoint[];
  /** Average requests per second. */
  averageRps: number;
  /** Number of requests in the window. */
  totalRequests: number;
  /** Average response time, in ms. */
  averageDurationMs: number;
  /** Number of responses with status 500. */
  totalServerErrors500: number;
}

/** A signed backup download link, as {@link getBackupDownloadUrl} returns it. */
export interface BackupDownloadUrl {
  /** The signed, expiring URL; a Pulumi secret. */
  url: pulumi.Output<string>;
}

assertType<SameShape<Camelize<wire.ProjectInfo>, UsageSeries>>(true);
assertType<
  SameShape<
    Camelize<wire.DatabaseService> & { replicaStatus: wire.ReplicaStatus[] } & {
      projectInfo: UsageSeries;
    },
    DatabaseInfo
  >
>(true);
assertType<SameShape<Camelize<wire.AppSummary> & { projectInfo?: UsageSeries }, AppInfo>>(true);
assertType<SameShape<Camelize<wire.Deployment>, DeploymentInfo>>(true);
assertType<SameShape<Camelize<wire.DashboardData>, AppDashboard>>(true);
