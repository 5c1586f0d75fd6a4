import { inspect } from "node:util";
import { z } from "zod";
import { checkDotenvText, formatDotenv } from "./dotenv";
import { HOSTNAME_PATTERN, normalizeHostname } from "./hostname";
import { endpoints, type Endpoint } from "./endpoints";
import { HostingInputError } from "./errors";
import { archiveForm, archiveSize } from "./multipart";
import { buildPath } from "./path";
import {
  appListEntrySchema,
  attachDomainResponseSchema,
  backupDownloadSchema,
  connectionInfoSchema,
  createdAppSchema,
  dashboardDataSchema,
  databaseResponseSchema,
  deploymentSchema,
  messageSchema,
  optionalMessageSchema,
  projectInfoSchema,
  runtimeVersionSchema,
} from "./schemas";
import type {
  AppListEntry,
  AttachDomainResponse,
  BackupDownload,
  ConnectionInfo,
  CreatedApp,
  DashboardData,
  DatabaseResponse,
  Deployment,
  Message,
  ProjectInfo,
  OptionalMessage,
  RuntimeVersion,
} from "./types";
import { assertTokenShape, parseApiUrl } from "./credentials";
import { DEFAULT_MAX_RESPONSE_BYTES } from "./body-limit";
import { DEFAULT_LIMITS } from "./timeouts";
import { withRetryLog } from "./request-log";
import { Transport, type RequestSpec } from "./transport";
import type { RequestLimiter } from "./limiter";
import { retryPolicyFrom, type RetryEvent, type RetryPolicy } from "./retry";
import { tokenDigest } from "./token-digest";
import { version } from "./version";

// List shapes made once, not on every call (a refresh of N resources lists often).
const appListSchema = z.array(appListEntrySchema);
const runtimeVersionListSchema = z.array(runtimeVersionSchema);
const deploymentListSchema = z.array(deploymentSchema);
const databaseListSchema = z.array(databaseResponseSchema);

/** Options of {@link HostingClient}. */
export interface HostingClientOptions {
  /** Base URL of the API, including its base path. */
  apiUrl: string;
  /** The user's API token (a JWT). Never logged, never part of an error. */
  token: string;
  /**
   * Retries after the first attempt for transient failures (default 2). 429s are not counted.
   * Overrides `retryPolicy.maxRetries`.
   */
  maxRetries?: number;
  /**
   * Idle limit per attempt in ms: no byte sent or received for this long fails the attempt
   * (default 60 000). An upload may take longer in total, as long as it keeps moving.
   */
  timeoutMs?: number;
  /** Limit for opening a connection in ms (default 10 000). */
  connectTimeoutMs?: number;
  /** Whole-attempt limit in ms for requests without an upload (default 300 000). */
  overallTimeoutMs?: number;
  /** Largest reply accepted, in bytes (default 32 MiB); a larger one is refused while streaming. */
  maxResponseBytes?: number;
  /**
   * How long one call keeps waiting and retrying while the server answers 429, in ms (default
   * 600 000; 0: no 429 retries). Rate limiting is back-pressure: a throttled call waits its turn.
   * Overrides `retryPolicy.throttleTimeoutMs`.
   */
  throttleTimeoutMs?: number;
  /**
   * What is retried and how it backs off; unset fields keep those of `DEFAULT_RETRY_POLICY`.
   * `maxRetries` and `throttleTimeoutMs`, when given, override the policy's.
   */
  retryPolicy?: Partial<RetryPolicy>;
  /** Called before every retry (throttled or transient), e.g. for a debug log. */
  onRetry?: (event: RetryEvent) => void;
  /**
   * One line per HTTP attempt and per retry on stderr: method, path, outcome and timings, never
   * headers, bodies or the token (default: whether `HOSTING_LOG=debug` when the client is made).
   */
  debugLog?: boolean;
  /** Permit plain http to a non-loopback host (default false). */
  allowInsecureHttp?: boolean;
  /** The User-Agent header (default `pulumi-hosting/<version> node/<version>`). */
  userAgent?: string;
  /** @internal benchmarks only: replace or disable the per-URL shared limiter. */
  limiter?: RequestLimiter | false;
}

/** What {@link HostingClient.createApp} uploads. */
export interface CreateAppOptions {
  /** Path of a .zip whose root holds the app (and its `hosting.json` manifest). */
  archivePath: string;
  /** Environment variables, as a map or as dotenv text. */
  env?: Readonly<Record<string, string>> | string;
  /**
   * The request's `Idempotency-Key` (1-255 visible ASCII characters; a random one when unset).
   * Send the same key for the same logical create, even from another process, and a service
   * that honours keys answers a repeat with the first app instead of making a second one.
   */
  idempotencyKey?: string;
}

/**
 * A typed client for every operation of the Hosting Management API. Replies are validated and
 * returned as the API sends them (snake_case). Transient failures are retried (GET, DELETE and
 * the POST and PATCH calls that set a state; other POSTs only when they provably were not
 * applied); errors are {@link HostingError}s
 * with a stable `code`.
 * @example
 * ```ts
 * const client = new HostingClient({ apiUrl, token });
 * try {
 *   const apps = await client.listApps();
 * } finally {
 *   await client.close();
 * }
 * ```
 */
export class HostingClient {
  /** The API's base URL, normalised. */
  readonly apiUrl: string;
  readonly #transport: Transport;
  readonly #account: string;
  readonly #retryPolicy: RetryPolicy;

  constructor(options: HostingClientOptions) {
    const url = parseApiUrl(options?.apiUrl, options?.allowInsecureHttp);
    assertTokenShape(options.token);
    const policy = retryPolicyFrom(options);
    const userAgent =
      options.userAgent ?? `pulumi-hosting/${version} node/${process.versions.node}`;
    // undici refuses such a header only when sending, which would read as a lost connection.
    if (typeof userAgent !== "string" || !HEADER_VALUE.test(userAgent)) {
      throw new HostingInputError(
        "userAgent",
        "userAgent must be a string of Latin-1 characters, without line breaks or control characters",
      );
    }
    if (options.onRetry !== undefined && typeof options.onRetry !== "function") {
      throw new HostingInputError("onRetry", "onRetry must be a function");
    }
    if (options.debugLog !== undefined && typeof options.debugLog !== "boolean") {
      throw new HostingInputError("debugLog", "debugLog must be true or false");
    }
    // The standalone client's default; resources and data sources pass the connection's reading.
    const debugLog = options.debugLog ?? process.env.HOSTING_LOG === "debug";
    this.apiUrl = url.toString();
    this.#account = tokenDigest(options.token.trim());
    this.#retryPolicy = policy;
    this.#transport = new Transport({
      apiUrl: url,
      token: options.token.trim(),
      retry: this.#retryPolicy,
      onRetry: debugLog ? withRetryLog(options.onRetry) : options.onRetry,
      debugLog,
      limits: {
        idleMs: positive(options, "timeoutMs", DEFAULT_LIMITS.idleMs),
        connectMs: positive(options, "connectTimeoutMs", DEFAULT_LIMITS.connectMs),
        overallMs: positive(options, "overallTimeoutMs", DEFAULT_LIMITS.overallMs),
      },
      maxResponseBytes: positive(options, "maxResponseBytes", DEFAULT_MAX_RESPONSE_BYTES),
      userAgent,
      limiter: options.limiter,
    });
  }

  /**
   * @internal Who the calls act for: a digest of the token, the same for every spelling of the
   * API URL (`localhost` or `127.0.0.1`), never the token. Keys the provider's create lock.
   */
  get accountKey(): string {
    return this.#account;
  }

  /**
   * @internal Whether requests of this API URL and token wait their turn in the shared limiter
   * now: the provider asks for fewer extra lists then, since each one delays a create.
   */
  get congested(): boolean {
    return this.#transport.congested;
  }

  /**
   * @internal What this client retries: its transport's policy, which the provider's own
   * recovery (an App create after a lost reply) follows too.
   */
  get retryPolicy(): RetryPolicy {
    return this.#retryPolicy;
  }

  /** `GET /apps`: every app of the caller, with its resource usage. */
  async listApps(): Promise<AppListEntry[]> {
    return this.#send("listApps", {}, appListSchema);
  }

  /**
   * `POST /apps`: uploads a `.zip` (streamed from disk) and the environment. Not retried once it
   * may have reached the service: a lost reply is for the caller to resolve (the App resource
   * looks for the app it made).
   */
  async createApp(options: CreateAppOptions): Promise<CreatedApp> {
    const env = options?.env;
    const envText = typeof env === "string" ? checkDotenvText(env) : formatDotenv(env ?? {});
    const key = options?.idempotencyKey;
    if (key !== undefined && (typeof key !== "string" || !IDEMPOTENCY_KEY.test(key))) {
      throw new HostingInputError(
        "idempotencyKey",
        "idempotencyKey must be 1-255 visible ASCII characters (no spaces); omit it for a random one",
      );
    }
    const size = await archiveSize(options?.archivePath);
    return this.#send("createApp", {}, createdAppSchema, {
      idempotencyKey: key,
      stream: async () => archiveForm(options.archivePath, size, envText),
      lostReplyHint:
        "call listApps() and look for an app with the name in the archive's hosting.json",
    });
  }

  /** `GET /apps/versions`: runtime versions apps can use, for one language or all. */
  async listRuntimeVersions(options: { language?: string } = {}): Promise<RuntimeVersion[]> {
    return this.#send("listRuntimeVersions", {}, runtimeVersionListSchema, {
      query: { [endpoints.listRuntimeVersions.query.language]: options.language },
    });
  }

  /**
   * `POST /apps/{app_id}/domains`: attaches a custom domain, or answers with its current state
   * when it is attached already. The domain must already CNAME to the edge.
   */
  async attachCustomDomain(appId: string, customDomain: string): Promise<AttachDomainResponse> {
    if (
      typeof customDomain !== "string" ||
      !HOSTNAME_PATTERN.test(normalizeHostname(customDomain))
    ) {
      throw new HostingInputError(
        "customDomain",
        `customDomain ${JSON.stringify(customDomain)} is not a hostname: pass one such as ` +
          "www.example.com (no scheme, path or port; internationalised names in punycode)",
      );
    }
    return this.#send("attachCustomDomain", { app_id: appId }, attachDomainResponseSchema, {
      json: { [endpoints.attachCustomDomain.body.customDomain]: customDomain },
    });
  }

  /** `DELETE /apps/{app_id}/domains` (assumed): removes the app's custom domain. */
  async removeCustomDomain(appId: string): Promise<OptionalMessage> {
    return this.#send("removeCustomDomain", { app_id: appId }, optionalMessageSchema);
  }

  /** `GET /apps/{app_id}/dashboard-data`: traffic analytics over the last `minutes`. */
  async getDashboardData(appId: string, options: { minutes: number }): Promise<DashboardData> {
    return this.#send("getDashboardData", { app_id: appId }, dashboardDataSchema, {
      query: {
        [endpoints.getDashboardData.query.minutes]: checkMinutes(
          "getDashboardData",
          options?.minutes,
        ),
      },
    });
  }

  /** `GET /apps/{app_id}/deploys`: the app's deployments. */
  async listDeployments(appId: string): Promise<Deployment[]> {
    return this.#send("listDeployments", { app_id: appId }, deploymentListSchema);
  }

  /** `GET /apps/{app_id}/metrics`: RAM, CPU and network usage over the last `minutes`. */
  async getAppMetrics(appId: string, options: { minutes: number }): Promise<ProjectInfo> {
    return this.#send("getAppMetrics", { app_id: appId }, projectInfoSchema, {
      query: {
        [endpoints.getAppMetrics.query.minutes]: checkMinutes("getAppMetrics", options?.minutes),
      },
    });
  }

  /** `DELETE /apps/{app_id}/web`: takes the app off the public web. */
  async disableWebAccess(appId: string): Promise<Message> {
    return this.#send("disableWebAccess", { app_id: appId }, messageSchema);
  }

  /** `POST /apps/{app_id}/web` (assumed): puts the app back on the public web. */
  async enableWebAccess(appId: string): Promise<OptionalMessage> {
    return this.#send("enableWebAccess", { app_id: appId }, optionalMessageSchema);
  }

  /** `PATCH /apps/{app_id}/analytics`: turns traffic analytics on or off. */
  async setAnalytics(appId: string, enabled: boolean): Promise<OptionalMessage> {
    if (typeof enabled !== "boolean") {
      throw new HostingInputError("enabled", "enabled must be true or false");
    }
    return this.#send("setAnalytics", { app_id: appId }, optionalMessageSchema, {
      json: { [endpoints.setAnalytics.body.enabled]: enabled },
    });
  }

  /** `DELETE /apps/{app_id}` (assumed): deletes the app; a NotFoundError when it is gone. */
  async deleteApp(appId: string): Promise<OptionalMessage> {
    return this.#send("deleteApp", { app_id: appId }, optionalMessageSchema);
  }

  /** `GET /databases`: the caller's databases, or a workspace's. */
  async listDatabases(options: { workspaceId?: string } = {}): Promise<DatabaseResponse[]> {
    return this.#send("listDatabases", {}, databaseListSchema, {
      query: { [endpoints.listDatabases.query.workspaceId]: options.workspaceId },
    });
  }

  /** `GET /databases/{database_id}/connection-url`: the connection URL (it holds the password). */
  async getDatabaseConnection(databaseId: string): Promise<ConnectionInfo> {
    return this.#send("getDatabaseConnection", { database_id: databaseId }, connectionInfoSchema);
  }

  /** `POST /databases/{database_id}/retry-setup`: restarts a database's setup. */
  async retryDatabaseSetup(databaseId: string): Promise<Message> {
    return this.#send("retryDatabaseSetup", { database_id: databaseId }, messageSchema, {
      lostReplyHint: "call listDatabases() and look at the database's last_setup_at",
    });
  }

  /** `GET /project/{project_id}/backups/{backup_id}/download`: a signed, expiring URL. */
  async getBackupDownloadUrl(projectId: string, backupId: string): Promise<BackupDownload> {
    return this.#send(
      "getBackupDownloadUrl",
      { project_id: projectId, backup_id: backupId },
      backupDownloadSchema,
    );
  }

  /**
   * `DELETE /project/{project_id}/backups/{backup_id}`: a RetentionPeriodError when the backup
   * is younger than the minimum retention age.
   */
  async deleteBackup(projectId: string, backupId: string): Promise<Message> {
    return this.#send(
      "deleteBackup",
      { project_id: projectId, backup_id: backupId },
      messageSchema,
    );
  }

  /** `POST /vms/{vm_id}/start`: starts a VM. */
  async startVm(vmId: string): Promise<Message> {
    return this.#send("startVm", { vm_id: vmId }, messageSchema, {
      lostReplyHint: "check whether the VM is running (the API reports no VM state)",
    });
  }

  /**
   * @internal Server-supplied text (a deployment's `error`) with this client's token, any
   * `Bearer …` value and anything shaped like a JWT taken out, before it goes into a message.
   */
  scrub(text: string): string {
    return this.#transport.scrub(text);
  }

  /** Closes the connection pool; the client cannot be used afterwards. */
  close(): Promise<void> {
    return this.#transport.close();
  }

  /** What `console.log` and `util.inspect` show: the URL, never the token. */
  [inspect.custom](): string {
    return `HostingClient { apiUrl: ${JSON.stringify(this.apiUrl)}, token: [redacted] }`;
  }

  /** What `JSON.stringify` shows: the URL, never the token. */
  toJSON(): {
    /** The API URL. */
    apiUrl: string;
  } {
    return { apiUrl: this.apiUrl };
  }

  async #send<S extends z.ZodType>(
    operation: keyof typeof endpoints,
    params: Record<string, string>,
    schema: S,
    extra: {
      query?: Record<string, string | number | undefined>;
      json?: unknown;
      stream?: RequestSpec<S>["stream"];
      lostReplyHint?: string;
      idempotencyKey?: string;
    } = {},
  ): Promise<z.infer<S>> {
    const endpoint: Endpoint = endpoints[operation];
    // Thrown synchronously-in-promise before any request when an ID is unsafe.
    const path = buildPath(endpoint.path, params);
    const { method } = endpoint;
    return this.#transport.request({ operation, method, path, schema, ...extra });
  }
}

/** The time window of metrics and dashboard data, within the bounds the endpoint table gives. */
function checkMinutes(op: "getAppMetrics" | "getDashboardData", minutes: unknown): number {
  const [min, max] = endpoints[op].bounds.minutes;
  if (typeof minutes !== "number" || !Number.isInteger(minutes) || minutes < min || minutes > max) {
    throw new HostingInputError("minutes", `minutes must be a whole number from ${min} to ${max}`);
  }
  return minutes;
}

/** An Idempotency-Key: visible ASCII, as the IETF draft's keys are. */
const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

/** What undici sends as a header value (its own check, lib/core/util.js). */
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

type Limit = "timeoutMs" | "connectTimeoutMs" | "overallTimeoutMs" | "maxResponseBytes";

function positive(options: HostingClientOptions, name: Limit, fallback: number): number {
  const v = options[name] ?? fallback;
  if (typeof v !== "number" || !Number.isFinite(v) || v <= 0) {
    throw new HostingInputError(name, `${name} must be a positive number`);
  }
  return v;
}
