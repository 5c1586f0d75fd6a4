/**
 * The endpoint table: every path, method and query-parameter name the client sends and the
 * emulator serves. Entries marked `assumed` fill a gap the spec leaves "not shown"; each such
 * choice lives here only (and in the README's "Assumptions"), so one edit follows the real service.
 */
import { assertType, type Equal } from "../base";

/** The HTTP methods the API uses. */
export type HttpMethod = "GET" | "POST" | "PATCH" | "DELETE";

/** One operation of the API: its method, path and query-parameter names. */
export interface Endpoint {
  /** The HTTP method. */
  readonly method: HttpMethod;
  /** Path template relative to the API base; `{name}` marks a path parameter. */
  readonly path: string;
  /** Query-parameter names this endpoint takes, keyed by their camelCase option name. */
  readonly query?: Readonly<Record<string, string>>;
  /** Inclusive bounds of numeric query values, keyed like `query`. */
  readonly bounds?: Readonly<Record<string, readonly [min: number, max: number]>>;
  /** Field names of the JSON (or multipart) body, keyed by their camelCase option name. */
  readonly body?: Readonly<Record<string, string>>;
  /** Why this entry is a guess, when the spec does not show it. */
  readonly assumed?: string;
  /**
   * Why a POST or PATCH is safe to send again after a lost reply (it sets a state rather than
   * adding one): then it is retried like a GET.
   */
  readonly safeToRepeat?: string;
}

/** The time window of the dashboard and metrics reads: one query parameter, one assumption. */
const minutesWindow = {
  query: { minutes: "minutes" },
  bounds: { minutes: [1, 43_200] },
  assumed: "time window query parameter is `minutes`, a whole number from 1 to 43200 (30 days)",
} as const;

/** @internal The table with its literal types, for the client and the emulator. */
export const endpoints = {
  listApps: { method: "GET", path: "/apps" },
  createApp: {
    method: "POST",
    path: "/apps",
    body: { project: "project", env: "env" },
    assumed: "the `env` field is dotenv text (KEY=value lines)",
  },
  listRuntimeVersions: {
    method: "GET",
    path: "/apps/versions",
    query: { language: "language" },
    assumed: "language filter query parameter is named `language`",
  },
  attachCustomDomain: {
    method: "POST",
    path: "/apps/{app_id}/domains",
    body: { customDomain: "custom_domain" },
    safeToRepeat: "re-POSTing the same domain to the same app returns its current record",
  },
  removeCustomDomain: {
    method: "DELETE",
    path: "/apps/{app_id}/domains",
    assumed: "custom-domain removal is DELETE /apps/{app_id}/domains",
  },
  getDashboardData: { method: "GET", path: "/apps/{app_id}/dashboard-data", ...minutesWindow },
  listDeployments: { method: "GET", path: "/apps/{app_id}/deploys" },
  getAppMetrics: { method: "GET", path: "/apps/{app_id}/metrics", ...minutesWindow },
  disableWebAccess: { method: "DELETE", path: "/apps/{app_id}/web" },
  enableWebAccess: {
    method: "POST",
    path: "/apps/{app_id}/web",
    assumed: "re-enabling web access is POST /apps/{app_id}/web",
    safeToRepeat: "it turns web access on; on is on however often it is asked",
  },
  setAnalytics: {
    method: "PATCH",
    path: "/apps/{app_id}/analytics",
    body: { enabled: "enabled" },
    assumed: 'request body is { "enabled": boolean }',
    safeToRepeat: "it sets analytics to the value sent, not by a step",
  },
  deleteApp: {
    method: "DELETE",
    path: "/apps/{app_id}",
    assumed: "app deletion is DELETE /apps/{app_id}; 404 means already gone",
  },
  listDatabases: { method: "GET", path: "/databases", query: { workspaceId: "workspace_id" } },
  getDatabaseConnection: { method: "GET", path: "/databases/{database_id}/connection-url" },
  retryDatabaseSetup: { method: "POST", path: "/databases/{database_id}/retry-setup" },
  getBackupDownloadUrl: {
    method: "GET",
    path: "/project/{project_id}/backups/{backup_id}/download",
  },
  deleteBackup: { method: "DELETE", path: "/project/{project_id}/backups/{backup_id}" },
  startVm: { method: "POST", path: "/vms/{vm_id}/start" },
} as const satisfies Record<string, Endpoint>;

/** The name of an operation: the {@link HostingClient} method that calls it. */
export type EndpointName =
  | "listApps"
  | "createApp"
  | "listRuntimeVersions"
  | "attachCustomDomain"
  | "removeCustomDomain"
  | "getDashboardData"
  | "listDeployments"
  | "getAppMetrics"
  | "disableWebAccess"
  | "enableWebAccess"
  | "setAnalytics"
  | "deleteApp"
  | "listDatabases"
  | "getDatabaseConnection"
  | "retryDatabaseSetup"
  | "getBackupDownloadUrl"
  | "deleteBackup"
  | "startVm";
assertType<Equal<EndpointName, keyof typeof endpoints>>(true);

/**
 * Every operation's method, path and query-parameter names, keyed by the client method that
 * calls it; entries with `assumed` fill a gap the spec leaves open (see the README's Assumptions).
 */
export const endpointTable: Readonly<Record<EndpointName, Endpoint>> = endpoints;

/** Other choices for what the spec leaves out, kept beside the endpoint table. */
export const wireAssumptions = {
  /** Name of the app-settings manifest at the root of the uploaded archive. */
  manifestFileName: "hosting.json",
  /** Largest `env` text POST /apps takes (UTF-8 bytes; the spec shows no limit). */
  maxEnvBytes: 64 * 1024,
  /** Largest manifest the service reads from an archive (UTF-8 bytes; not shown either). */
  maxManifestBytes: 64 * 1024,
  /** Header that carries a request id on responses, in the order we look for them. */
  requestIdHeaders: ["x-request-id", "request-id", "x-amzn-requestid", "cf-ray"],
  /** Header a POST carries so that the server can recognise its retries. */
  idempotencyHeader: "idempotency-key",
  /**
   * The dashboard's 400 answer while analytics is off says so in its `error`; only an answer
   * matching this means "off" (any other 400, e.g. a bad window, is an error).
   */
  analyticsOffError: /analytics is not enabled/i,
} as const;
