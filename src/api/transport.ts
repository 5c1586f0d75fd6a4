import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import type { Readable } from "node:stream";
import { Pool } from "undici";
import type { z } from "zod";
import { readBounded } from "./body-limit";
import { wireAssumptions, type HttpMethod } from "./endpoints";
import { makeApiError } from "./errors/make-api-error";
import { makeNetworkError } from "./errors/make-network-error";
import { HostingReplyTooLargeError } from "./errors/reply-too-large-error";
import type { HostingApiError } from "./errors/api-error";
import { limiterFor, type Permit, type RequestLimiter } from "./limiter";
import { parseBody } from "./parse";
import { searchOf } from "./query";
import { rateLimitInfo } from "./rate-limit-headers";
import { logAttempt } from "./request-log";
import { decideRetry, type Failure, type RetryEvent } from "./retry";
import { makeScrubber, scrubError, type Scrub } from "./scrub";
import { AttemptClock, type TimeoutLimits } from "./timeouts";

export interface TransportOptions {
  apiUrl: URL;
  token: string;
  maxRetries: number;
  limits: TimeoutLimits;
  /** Largest reply body read; a larger one is refused while streaming. */
  maxResponseBytes: number;
  userAgent: string;
  /** How long one call keeps retrying 429s, in ms. */
  throttleTimeoutMs: number;
  /** Replaces the per-URL shared limiter; `false` turns it off (benchmarks only). */
  limiter?: RequestLimiter | false;
  onRetry?: (event: RetryEvent) => void;
}

export interface RequestSpec<S extends z.ZodType> {
  operation: string;
  method: HttpMethod;
  path: string;
  query?: Record<string, string | number | undefined>;
  json?: unknown;
  /** A fresh body per attempt, for streamed uploads. */
  stream?: () => Promise<{ body: Readable; headers: Record<string, string> }>;
  schema: S;
}

type Outcome =
  { ok: true; body: unknown } | { ok: false; failure: Failure; error: Error; waitMs?: number };

const NO_PERMIT: Permit = { sentAt: 0, release: () => undefined };

/** One keep-alive pool per client; retries, the shared limiter and error mapping live here. */
export class Transport {
  readonly #pool: Pool;
  readonly #opts: TransportOptions;
  readonly #basePath: string;
  readonly #limiter: RequestLimiter | undefined;
  readonly #auth: string;
  readonly #scrub: Scrub;

  constructor(opts: TransportOptions) {
    this.#opts = opts;
    this.#auth = `Bearer ${opts.token}`;
    this.#scrub = makeScrubber(opts.token);
    this.#basePath = opts.apiUrl.pathname.replace(/\/+$/, "");
    this.#limiter =
      opts.limiter === false ? undefined : (opts.limiter ?? limiterFor(opts.apiUrl, opts.token));
    this.#pool = new Pool(opts.apiUrl.origin, {
      connections: 32,
      keepAliveTimeout: 10_000,
      connect: { timeout: Math.min(opts.limits.connectMs, opts.limits.idleMs) },
      // Off: AttemptClock keeps idle and overall limits that an upload can live with.
      headersTimeout: 0,
      bodyTimeout: 0,
    });
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
    if (spec.method === "POST") headers[wireAssumptions.idempotencyHeader] = randomUUID();

    const deadline = Date.now() + this.#opts.throttleTimeoutMs;
    let transientRetries = 0;
    for (let attempt = 1; ; attempt++) {
      const startedAt = performance.now();
      const outcome = await this.#attempt(spec, fullPath, headers, attempt > 1);
      logAttempt(spec.method, fullPath, attempt, startedAt, outcome);
      if (outcome.ok) {
        try {
          return parseBody(spec.operation, spec.schema, outcome.body);
        } catch (err) {
          throw scrubError(err, this.#scrub); // the problem may quote the reply
        }
      }
      const now = Date.now();
      const plan = decideRetry(spec.method, outcome.failure, outcome.waitMs, {
        transientRetries,
        maxRetries: this.#opts.maxRetries,
        deadline,
        now,
      });
      const error = scrubError(outcome.error, this.#scrub);
      if (!plan.retry) throw error;
      if (plan.reason === "transient") transientRetries++;
      // With the shared limiter, a 429's wait is the limiter's pause: everyone sits it out there.
      const ownWait = plan.reason === "throttled" && this.#limiter ? 0 : plan.waitMs;
      this.#opts.onRetry?.({
        operation: spec.operation,
        method: spec.method,
        path: spec.path,
        attempt,
        reason: plan.reason,
        status: outcome.failure.kind === "status" ? outcome.failure.status : undefined,
        waitMs: Math.max(ownWait, (this.#limiter?.pausedUntil ?? 0) - now),
        message: error.message,
      });
      if (ownWait > 0) await sleep(ownWait);
    }
  }

  async #attempt(
    spec: RequestSpec<z.ZodType>,
    fullPath: string,
    baseHeaders: Record<string, string>,
    retry: boolean,
  ): Promise<Outcome> {
    const permit: Permit = this.#limiter ? await this.#limiter.acquire(retry) : NO_PERMIT;
    try {
      const headers = { ...baseHeaders };
      let body: string | Readable | undefined;
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
    body: string | Readable | undefined,
    clock: AttemptClock,
    permit: Permit,
  ): Promise<Outcome> {
    let res;
    try {
      res = await this.#pool.request({
        method: spec.method,
        path: fullPath,
        headers,
        body,
        signal: clock.signal,
      });
    } catch (err) {
      if (body && typeof body !== "string") body.destroy();
      return this.#networkFailure(spec, err, clock);
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
      return { ok: false, failure: { kind: "refused" }, error };
    }
    const text = read.text;
    const limits = rateLimitInfo(res.headers);
    this.#limiter?.observe(permit, res.statusCode, limits);
    if (res.statusCode >= 200 && res.statusCode < 300) {
      return { ok: true, body: text.length > 0 ? safeJson(text) : {} };
    }
    const wait = limits.retryAfterMs;
    const scrub = this.#scrub;
    const error: HostingApiError = makeApiError(spec.operation, {
      status: res.statusCode,
      bodyMessage: errorMessageOf(scrub(text), res.statusCode),
      method: spec.method,
      path: spec.path,
      requestId: mapDefined(headerOf(res.headers, wireAssumptions.requestIdHeaders), scrub),
      location: mapDefined(headerOf(res.headers, ["location"]), scrub),
      retryAfterMs: wait,
    });
    return {
      ok: false,
      failure: { kind: "status", status: res.statusCode },
      error,
      waitMs: wait,
    };
  }

  #networkFailure(spec: RequestSpec<z.ZodType>, err: unknown, clock: AttemptClock) {
    const { error, reachedServer, timeout } = makeNetworkError({
      method: spec.method,
      path: spec.path,
      address: this.#opts.apiUrl.host,
      cause: err,
      connectMs: clock.limits.connectMs,
      expired: clock.expired,
    });
    return {
      ok: false as const,
      failure: { kind: "network" as const, reachedServer, timeout },
      error,
    };
  }

  async close(): Promise<void> {
    await this.#pool.close();
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The body's `error` field; for a body that is not JSON (a proxy's HTML page) a short snippet. */
function errorMessageOf(text: string, status: number): string {
  const parsed = safeJson(text);
  if (
    parsed &&
    typeof parsed === "object" &&
    typeof (parsed as { error?: unknown }).error === "string"
  ) {
    return (parsed as { error: string }).error;
  }
  const snippet = text
    .replace(/<[^>]*>/g, " ")
    .replace(/\s+/g, " ")
    .trim()
    .slice(0, 120);
  return snippet ? `non-JSON error body: ${snippet}` : `empty error body (HTTP ${status})`;
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

const mapDefined = <T, R>(v: T | undefined, f: (v: T) => R): R | undefined =>
  v === undefined ? undefined : f(v);
