import { randomUUID } from "node:crypto";
import type { Readable } from "node:stream";
import type { Pool } from "undici";
import type { z } from "zod";
import { readBounded } from "./body-limit";
import { wireAssumptions, type HttpMethod } from "./endpoints";
import { askedPastDeadline, heldPastDeadline, type WaitDeadline } from "./deadline-errors";
import {
  HostingReplyTooLargeError,
  HostingResponseError,
  LimiterHoldError,
  RateLimitError,
  type ApiErrorDetails,
} from "./errors";
import { makeNetworkError } from "./network-errors";
import { makeApiError } from "./status-errors";
import type { Permit, RequestLimiter } from "./limiter";
import { MAX_TIMER_MS, realClock, sleep, type Clock } from "../base";
import { limiterFor } from "./shared-limiters";
import { parseBody } from "./parse";
import { poolClass } from "./http-pool";
import { isRefusalStatus, refusalOf } from "./refusals";
import { searchOf } from "./query";
import { rateLimitInfo } from "./rate-limit-headers";
import { markLostReply } from "./lost-reply";
import { logAttempt } from "./request-log";
import {
  decideRetry,
  isRefused,
  mayHaveTakenEffect,
  type AttemptFailure,
  type RetryEvent,
  type RetryPolicy,
} from "./retry";
import type { UploadBody } from "./multipart";
import { makeScrubber, scrubError, type Scrub } from "./scrub";
import { AttemptClock, type TimeoutLimits } from "./timeouts";

export interface TransportOptions {
  apiUrl: URL;
  token: string;
  /** What is retried, how often, for how long (retry.ts). */
  retry: RetryPolicy;
  limits: TimeoutLimits;
  /** Largest reply body read; a larger one is refused while streaming. */
  maxResponseBytes: number;
  userAgent: string;
  /** Replaces the per-URL shared limiter; `false` turns it off (benchmarks only). */
  limiter?: RequestLimiter | false;
  onRetry?: (event: RetryEvent) => void;
  /** One stderr line per attempt (request-log.ts). */
  debugLog?: boolean;
}

export interface RequestSpec<S extends z.ZodType> {
  operation: string;
  method: HttpMethod;
  path: string;
  query?: Record<string, string | number | undefined>;
  json?: unknown;
  /** A fresh body per attempt, for streamed uploads. */
  stream?: () => Promise<{ body: UploadBody; headers: Record<string, string> }>;
  schema: S;
  /** What to check before repeating this call when its reply was lost after it may have
   * taken effect, e.g. "check listApps() for …". */
  lostReplyHint?: string;
  /** A POST's Idempotency-Key; a fresh random one when unset. */
  idempotencyKey?: string;
}

type Outcome =
  | { ok: true; status: number; body: unknown }
  | { ok: false; failure: AttemptFailure; error: Error; waitMs?: number };

/** The message of a DELETE whose retry found the object gone after a lost reply. */
export const DELETED_ON_LOST_REPLY =
  "deleted: a retry after a lost reply found it gone, so the first attempt took effect";

const NO_PERMIT: Permit = { sentAt: 0, release: () => undefined };

/** One keep-alive pool per client; retries, the shared limiter and error mapping live here. */
export class Transport {
  readonly #pool: Pool;
  readonly #opts: TransportOptions;
  readonly #basePath: string;
  readonly #limiter: RequestLimiter | undefined;
  readonly #auth: string;
  readonly #scrub: Scrub;
  /** Deadlines and retry waits are on the limiter's clock, so a test's clock moves them too. */
  readonly #clock: Clock;

  constructor(opts: TransportOptions) {
    this.#opts = opts;
    this.#auth = `Bearer ${opts.token}`;
    this.#scrub = makeScrubber(opts.token);
    this.#basePath = opts.apiUrl.pathname.replace(/\/+$/, "");
    this.#limiter =
      opts.limiter === false ? undefined : (opts.limiter ?? limiterFor(opts.apiUrl, opts.token));
    this.#clock = this.#limiter?.clock ?? realClock;
    const HttpPool = poolClass();
    this.#pool = new HttpPool(opts.apiUrl.origin, {
      connections: 32,
      keepAliveTimeout: 10_000,
      connect: { timeout: Math.min(opts.limits.connectMs, opts.limits.idleMs, MAX_TIMER_MS) },
      // Off: AttemptClock keeps idle and overall limits that an upload can live with.
      headersTimeout: 0,
      bodyTimeout: 0,
    });
  }

  /** Whether the shared limiter holds requests back now: each more request waits its turn. */
  get congested(): boolean {
    return this.#limiter?.congested ?? false;
  }

  /** Server-supplied text with the token (and anything shaped like one) taken out. */
  scrub(text: string): string {
    return this.#scrub(text);
  }

  async request<S extends z.ZodType>(spec: RequestSpec<S>): Promise<z.infer<S>> {
    const search = searchOf(spec.query);
    const qs = search.size > 0 ? `?${search}` : "";
    const fullPath = `${this.#basePath}${spec.path}${qs}`;
    const headers: Record<string, string> = {
      authorization: this.#auth,
      accept: "application/json",
      "user-agent": this.#opts.userAgent,
    };
    if (spec.method === "POST") {
      headers[wireAssumptions.idempotencyHeader] = spec.idempotencyKey ?? randomUUID();
    }

    // Every wait of this call (the limiter's, a 429's, a transient failure's) ends by then.
    const policy = this.#opts.retry;
    const deadline = this.#clock.now() + policy.throttleTimeoutMs;
    let transientRetries = 0;
    // Set once an attempt may have been applied though its reply was lost.
    let ambiguous = false;
    for (let attempt = 1; ; attempt++) {
      const sent = { at: performance.now() };
      let outcome = await this.#attempt(spec, fullPath, headers, attempt > 1, sent, deadline);
      if (this.#opts.debugLog) logAttempt(spec.method, fullPath, attempt, sent.at, outcome);
      if (outcome.ok) {
        try {
          return parseBody(spec.operation, spec.schema, outcome.body);
        } catch (err) {
          // Not the documented shape; the 2xx still says the service acted on it.
          const failure = { kind: "refused" as const, status: outcome.status };
          outcome = { ok: false, failure, error: asError(err) };
        }
      }
      if (
        ambiguous &&
        policy.deleteGoneAfterLostReply &&
        spec.method === "DELETE" &&
        outcome.failure.kind === "status" &&
        outcome.failure.status === 404
      ) {
        // The earlier attempt deleted it: gone is what was asked.
        return parseBody(spec.operation, spec.schema, { message: DELETED_ON_LOST_REPLY });
      }
      const now = this.#clock.now();
      const plan = decideRetry(
        spec.method,
        outcome.failure,
        outcome.waitMs,
        {
          transientRetries,
          deadline,
          now,
          operation: spec.operation,
        },
        policy,
      );
      if (mayHaveTakenEffect(outcome.failure, policy)) ambiguous = true;
      if (!plan.retry) {
        // Scrubbed only when it leaves (it may quote the reply): scrubbing reads its stack, which
        // the host's source-map support formats at 5-50 ms an error, and a retried one is dropped.
        let error = scrubError(outcome.error, this.#scrub);
        if (plan.pastDeadlineMs !== undefined && error instanceof RateLimitError) {
          error = askedPastDeadline(error, plan.pastDeadlineMs, this.#throttleLimit);
        }
        throw ambiguous
          ? markLostReply(spec.method, error, spec.lostReplyHint, policy, spec.operation)
          : error;
      }
      if (plan.reason === "transient") transientRetries++;
      // With the shared limiter, a refusal's wait is the limiter's pause: everyone sits it out
      // there (it observed the refusal by the same policy).
      const status = outcome.failure.kind === "status" ? outcome.failure.status : undefined;
      const pausedByLimiter = plan.reason === "throttled" && this.#limiter;
      const ownWait = pausedByLimiter ? 0 : plan.waitMs;
      this.#opts.onRetry?.({
        operation: spec.operation,
        method: spec.method,
        path: spec.path,
        attempt,
        reason: plan.reason,
        status,
        waitMs: Math.max(ownWait, this.#limiter?.nextSlotInMs() ?? 0),
        message: this.#scrub(outcome.error.message),
      });
      if (ownWait > 0) await sleep(this.#clock, ownWait);
    }
  }

  get #throttleLimit(): WaitDeadline {
    return { limit: "throttleTimeoutMs", limitMs: this.#opts.retry.throttleTimeoutMs };
  }

  async #attempt(
    spec: RequestSpec<z.ZodType>,
    fullPath: string,
    baseHeaders: Record<string, string>,
    retry: boolean,
    sent: { at: number },
    deadline: number,
  ): Promise<Outcome> {
    let permit = NO_PERMIT;
    if (this.#limiter) {
      // The wait for a slot counts against the call's throttle deadline and, for a request
      // without an upload, against the attempt's overall limit too.
      const { overallMs } = this.#opts.limits;
      const overallEnd = spec.stream ? Infinity : this.#clock.now() + overallMs;
      const d: WaitDeadline =
        overallEnd < deadline
          ? { limit: "overallTimeoutMs", limitMs: overallMs }
          : this.#throttleLimit;
      try {
        permit = await this.#limiter.acquire(retry, Math.min(deadline, overallEnd));
      } catch (err) {
        if (!(err instanceof LimiterHoldError)) throw err;
        const error = heldPastDeadline(spec, err, d);
        return { ok: false, failure: { kind: "refused" }, error };
      }
    }
    // The request's own time starts here, not while the limiter held it back.
    sent.at = performance.now();
    try {
      const headers = { ...baseHeaders };
      let body: string | UploadBody | undefined;
      if (spec.stream) {
        const s = await spec.stream();
        Object.assign(headers, s.headers);
        body = s.body;
      } else if (spec.json !== undefined) {
        headers["content-type"] = "application/json";
        body = JSON.stringify(spec.json);
      }
      const clock = new AttemptClock(this.#opts.limits, spec.stream !== undefined);
      if (body && typeof body !== "string") body = clock.watchUpload(body);
      try {
        return await this.#exchange(spec, fullPath, headers, body, clock, permit);
      } finally {
        clock.dispose();
      }
    } finally {
      permit.release();
    }
  }

  async #exchange(
    spec: RequestSpec<z.ZodType>,
    fullPath: string,
    headers: Record<string, string>,
    body: string | UploadBody | undefined,
    clock: AttemptClock,
    permit: Permit,
  ): Promise<Outcome> {
    let res;
    try {
      res = await this.#pool.request({
        method: spec.method,
        path: fullPath,
        headers,
        // undici takes async iterables (docs/api/Dispatcher.md) though its types leave them out.
        body: body as string | Readable | undefined,
        signal: clock.signal,
      });
    } catch (err) {
      // An archive that failed, not the connection: not resent, and not applied (see retry.ts).
      const upload = clock.uploadFailure;
      const outcome: Outcome = upload
        ? { ok: false, failure: { kind: "refused" }, error: asError(upload.error) }
        : this.#networkFailure(spec, err, clock);
      // Closes the archive if undici stopped asking for chunks before the last; awaited, so that
      // once the call settles the caller may delete the file (the provider does, at once).
      if (body && typeof body !== "string") await closeUpload(body);
      return outcome;
    }
    clock.gotHeaders();
    let read;
    try {
      read = await readBounded(res.body, res.headers, this.#opts.maxResponseBytes, clock.kick);
    } catch (err) {
      return this.#networkFailure(spec, err, clock);
    }
    if ("tooLarge" in read) {
      const max = this.#opts.maxResponseBytes;
      const error = new HostingReplyTooLargeError(spec.operation, spec.method, spec.path, max);
      return { ok: false, failure: { kind: "refused", status: res.statusCode }, error };
    }
    const text = read.text;
    const limits = rateLimitInfo(res.headers, this.#clock.now());
    this.#limiter?.observe(permit, res.statusCode, limits, this.#opts.retry);
    if (res.statusCode >= 200 && res.statusCode < 300) {
      const body = text.length > 0 ? safeJson(text, NOT_JSON) : {};
      if (body !== NOT_JSON) return { ok: true, status: res.statusCode, body };
      const error = notJsonError(spec.operation, this.#scrub(text.slice(0, SCRUB_WINDOW)));
      return { ok: false, failure: { kind: "refused", status: res.statusCode }, error };
    }
    // What a refusal (a 429) asks: Retry-After, else the reset of the window it ran into.
    const refused = isRefused(res.statusCode, this.#opts.retry);
    const wait = limits.retryAfterMs ?? (refused ? limits.resetMs : undefined);
    const scrub = this.#scrub;
    const error = makeApiError(
      spec.operation,
      withRefusal({
        status: res.statusCode,
        bodyMessage: errorMessageOf(text, res.statusCode, scrub),
        method: spec.method,
        path: spec.path,
        requestId: mapDefined(headerOf(res.headers, wireAssumptions.requestIdHeaders), scrub),
        location: mapDefined(headerOf(res.headers, ["location"]), scrub),
        retryAfterMs: wait,
      }),
    );
    return {
      ok: false,
      failure: { kind: "status", status: res.statusCode },
      error,
      waitMs: wait,
    };
  }

  #networkFailure(spec: RequestSpec<z.ZodType>, err: unknown, clock: AttemptClock) {
    const { error, reachedServer, timeout, bodyUnsent } = makeNetworkError({
      method: spec.method,
      path: spec.path,
      address: this.#opts.apiUrl.host,
      cause: err,
      connectMs: clock.limits.connectMs,
      expired: clock.expired,
      policy: this.#opts.retry,
    });
    return {
      ok: false as const,
      failure: { kind: "network" as const, reachedServer, timeout, bodyUnsent },
      error,
    };
  }

  async close(): Promise<void> {
    await this.#pool.close();
  }
}

function safeJson(text: string, fallback: unknown = text): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return fallback;
  }
}

const NOT_JSON = Symbol("not JSON");

/** A success reply that is not JSON at all: most often a URL that is not the API's. */
function notJsonError(operation: string, text: string): HostingResponseError {
  const problem = `the reply is not JSON (${snippetOf(text) || "unreadable"})`;
  const advice = "check that the apiUrl option is the Hosting API's base URL";
  return new HostingResponseError(operation, "", problem, { fix: { option: "apiUrl", advice } });
}

/** A short, tag-free snippet of a reply body. */
function snippetOf(text: string): string {
  return text
    .replace(/<[^>]*>/g, " ")
    .replace(/\s+/g, " ")
    .trim()
    .slice(0, 120);
}

/** The longest error text kept in a message; a hostile server may send megabytes of it. */
const MAX_ERROR_TEXT = 4096;
/** How much of it is scrubbed: enough past the cut that a secret across it is still seen. */
const SCRUB_WINDOW = 4 * MAX_ERROR_TEXT;

/**
 * The body's `error` field, scrubbed once parsed (JSON escapes may spell the token out), or for
 * a body that is not JSON (a proxy's HTML page) a short snippet; never more than 4 KiB of it.
 */
function errorMessageOf(text: string, status: number, scrub: Scrub): string {
  const parsed = safeJson(text);
  if (
    parsed &&
    typeof parsed === "object" &&
    typeof (parsed as { error?: unknown }).error === "string"
  ) {
    const error = scrub((parsed as { error: string }).error.slice(0, SCRUB_WINDOW));
    return error.length > MAX_ERROR_TEXT ? `${error.slice(0, MAX_ERROR_TEXT)}…` : error;
  }
  // Scrubbed again as a snippet: dropping tags may join a token that markup had split.
  const snippet = scrub(snippetOf(scrub(text.slice(0, SCRUB_WINDOW))));
  return snippet ? `non-JSON error body: ${snippet}` : `empty error body (HTTP ${status})`;
}

/** A refusal (400, 409 or 422) whose words name a setting carries it, with the client's advice. */
function withRefusal<D extends ApiErrorDetails>(details: D): D {
  if (!isRefusalStatus(details.status)) return details;
  const refusal = refusalOf(details.bodyMessage);
  return refusal ? { ...details, ...refusal, hint: details.hint ?? refusal.hint } : details;
}

/** The first of these headers that is present. */
function headerOf(
  headers: Record<string, string | string[] | undefined>,
  names: readonly string[],
): string | undefined {
  for (const name of names) {
    const v = headers[name];
    if (v) return Array.isArray(v) ? v[0] : v;
  }
  return undefined;
}

const asError = (e: unknown): Error => (e instanceof Error ? e : new Error(String(e)));

/** Ends an upload generator (so it closes its file), as `destroy()` would a stream. */
async function closeUpload(body: UploadBody): Promise<void> {
  const it = body as Partial<AsyncGenerator<Uint8Array>>;
  await it.return?.(undefined).catch(() => undefined);
}

const mapDefined = <T, R>(v: T | undefined, f: (v: T) => R): R | undefined =>
  v === undefined ? undefined : f(v);
