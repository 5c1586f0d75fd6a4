/*
 * Wire shapes of spec §2 as plain interfaces, snake_case as the API sends them. The client's
 * zod schemas (schemas.ts, internal) are checked against these at compile time, so the public
 * declarations name no dependency's types. Fields whose presence the spec does not show are
 * optional. The service may send fields not listed here; they are kept at run time.
 */

/** ISO 8601 date-time text, as the API sends it. */
export type DateTimeString = string;

/** A whole number (the spec's `integer`). */
export type Integer = number;

/** The engine of a managed database. */
export type DatabaseServiceType = "postgres" | "mysql" | "mongo" | "redis";

/** What kind of project a {@link Project} is. */
export type ProjectType = "app" | "database" | "virtual_machine";

/** The state of one replica of a database. */
export type ReplicaStatus = "not_found" | "pending" | "running" | "stopped";

/** Resource usage over the requested window, one point per sampled step (spec §2.4). */
export interface ProjectInfo {
  /** RAM in use per step, in MB. */
  ram: number[];
  /** vCPU usage per step. */
  vcpu: number[];
  /** Storage in use, in bytes. */
  storage: number;
  /** Bytes received per step. */
  network_receive: number[];
  /** Bytes sent per step. */
  network_send: number[];
}

/** Fields every project (app, database, VM) shares (spec §2.1). */
export interface Project {
  /** The project's id (a uuid). */
  id: string;
  /** The owner's user id. */
  user_id?: string;
  /** Present only when the project belongs to a workspace. */
  workspace_id?: string;
  /** RAM in MB. */
  ram?: number;
  /** Number of virtual CPUs. */
  vcpu?: number;
  /** The project's name. */
  name: string;
  /** Whether the project is an app. */
  is_app?: boolean;
  /** What kind of project this is. */
  project_type?: ProjectType;
  /** Blocked until this time, or null when not blocked. */
  blocked_until?: DateTimeString | null;
  /** Why the project is blocked, or null. */
  blocked_reason?: string | null;
  /** Whether setup has finished. */
  setup?: boolean;
  /** When the project was created. */
  created_at?: DateTimeString | null;
  /** Whether automatic backups are on. */
  auto_backup?: boolean;
}

/** A managed database: a {@link Project} plus its engine (spec §2.2). */
export interface DatabaseService extends Project {
  /** The database engine. */
  service_type: DatabaseServiceType;
  /** Whether the web data visualizer is on. */
  visualizer?: boolean;
  /** Size in bytes. */
  size?: number;
  /** When setup last ran. */
  last_setup_at?: DateTimeString | null;
}

/** One element of `GET /databases` (spec §2.3). */
export interface DatabaseResponse {
  /** The database itself. */
  database: DatabaseService;
  /** Its resource usage. */
  project_info: ProjectInfo;
  /** The state of each replica. */
  replica_status: ReplicaStatus[];
}

/** An app as `GET /apps` lists it (spec §2.5); the spec shows no required fields but `id`. */
export interface AppSummary {
  /** The app's id (a uuid). */
  id: string;
  /** The owner's user id. */
  user_id?: string;
  /** RAM in MB. */
  ram?: Integer;
  /** Number of virtual CPUs. */
  vcpu?: Integer;
  /** The app's name. */
  name?: string;
  /** Always true for an app. */
  is_app?: boolean;
  /** Blocked until this time (ISO 8601), or null when not blocked. */
  blocked_until?: DateTimeString | null;
  /** Whether setup has finished (the app is ready). */
  setup?: boolean;
  /** When it was created (ISO 8601). */
  created_at?: DateTimeString | null;
  /** When setup last ran (ISO 8601). */
  last_setup_at?: DateTimeString | null;
  /** The platform subdomain the app is served on. */
  subdomain?: string | null;
  /** The file the runtime starts. */
  entrypoint?: string | null;
  /** Free text. */
  description?: string | null;
  /** A start command that replaces the runtime's default. */
  custom_command?: string | null;
  /** The attached custom domain, if any. */
  custom_domain?: string | null;
}

/** One element of `GET /apps`. */
export interface AppListEntry {
  /** The app. */
  app: AppSummary;
  /** Its resource usage, when the service sends it. */
  project_info?: ProjectInfo;
}

/** One deployment of an app (spec §2.6). */
export interface Deployment {
  /** The deployment's id. */
  id: string;
  /** The app it belongs to. */
  app_id?: string;
  /** When it was made. */
  created_at?: DateTimeString | null;
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

/** A DNS record the platform asks for when a custom domain is attached (spec §2.7). */
export interface ValidationRecord {
  /** Record type, e.g. TXT. */
  type?: string;
  /** Record name. */
  name?: string;
  /** Record value. */
  value?: string;
  /** Name of the TXT record, when the record is given in that form. */
  txt_name?: string;
  /** Value of the TXT record. */
  txt_value?: string;
}

/** The SSL state of a custom hostname. */
export interface CustomHostnameSsl {
  /** Validation method, e.g. txt. */
  method?: string;
  /** Certificate type. */
  type?: string;
  /** Certificate status. */
  status?: string;
  /** Records that prove control for the certificate. */
  validation_records?: ValidationRecord[];
}

/** A custom hostname as the platform reports it (spec §2.7). */
export interface CustomHostname {
  /** The hostname's id at the edge. */
  id: string;
  /** The hostname, lower-case. */
  hostname: string;
  /** e.g. `pending`, then `active`. */
  status: string;
  /** Certificate state, when sent. */
  ssl?: CustomHostnameSsl;
  /** The TXT record that proves ownership, when sent. */
  ownership_verification?: ValidationRecord;
}

/** Reply to attaching a custom domain. */
export interface AttachDomainResponse {
  /** A human-readable note, when sent. */
  message?: string;
  /** The hostname and its verification records. */
  custom_hostname: CustomHostname;
  /** The edge target the domain must CNAME to. */
  cname: string;
}

/**
 * One element of a dashboard series: `{ timestamp, value }` or a metric-specific variant. The
 * spec does not show the exact shape, so every field is open.
 */
export interface DashboardSeriesPoint {
  /** Any field the service sends. */
  [field: string]: unknown;
}

/** Aggregated HTTP traffic of an app over the requested window (spec §2.8). */
export interface DashboardData {
  /** Requests per second over time. */
  rps_timeseries: DashboardSeriesPoint[];
  /** Request counts over time. */
  request_count_series: DashboardSeriesPoint[];
  /** Response durations over time. */
  duration_series: DashboardSeriesPoint[];
  /** Errors over time. */
  error_series: DashboardSeriesPoint[];
  /** Requests per browser. */
  browser_data: DashboardSeriesPoint[];
  /** Requests per route. */
  route_series: DashboardSeriesPoint[];
  /** Requests per status code. */
  status_series: DashboardSeriesPoint[];
  /** The slowest routes. */
  top_slow_routes: DashboardSeriesPoint[];
  /** The routes with the most errors. */
  top_error_routes: DashboardSeriesPoint[];
  /** Average requests per second. */
  average_rps: number;
  /** Number of requests in the window. */
  total_requests: number;
  /** Average response time, in ms. */
  average_duration_ms: number;
  /** Number of responses with status 500. */
  total_server_errors_500: number;
}

/** A language/runtime version apps can use (spec §2.9). */
export interface RuntimeVersion {
  /** e.g. `node`. */
  language: string;
  /** e.g. `20.18.1`. */
  version: string;
  /** Whether this is the version the platform recommends for the language. */
  recommended: boolean;
  /** Whether this is the newest version of the language. */
  latest: boolean;
}

/** A reply that carries only a message. */
export interface Message {
  /** Human-readable text. */
  message: string;
}

/** Reply of an endpoint whose body the spec does not show: a message is welcome, not required. */
export interface OptionalMessage {
  /** Human-readable text, when sent. */
  message?: string;
}

/** An error reply's body. */
export interface ErrorBody {
  /** What went wrong. */
  error: string;
}

/** How to reach a database. */
export interface ConnectionInfo {
  /** The connection URL; it holds the password. */
  connection_url: string;
  /** The web data visualizer's URL, if any. */
  visualizer_url?: string | null;
}

/** A signed download link for a backup. */
export interface BackupDownload {
  /** The signed, expiring URL. */
  url: string;
}

/** Reply to creating an app. */
export interface CreatedApp {
  /** The new app's id. */
  id: string;
}
