import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import type { Readable } from "node:stream";
import { Pool } from "undici";
import type { z } from "zod";
import { wireAssumptions, type HttpMethod } from "./endpoints";
import { HostingConnectionError } from "./errors/connection-error";
import { HostingTimeoutError } from "./errors/timeout-error";
import { makeApiError } from "./errors/make-api-error";
import type { HostingApiError } from "./errors/api-error";
import { limiterFor, type RequestLimiter } from "./limiter";
import { parseBody } from "./parse";
import { logAttempt } from "./request-log";
import { backoffDelayMs, retryAfterMs, shouldRetry, type Failure } from "./retry";

export interface TransportOptions {
  apiUrl: URL;
  token: string;
  maxRetries: number;
  timeoutMs: number;
  userAgent: string;
  /** Replaces the per-URL shared limiter; `false` turns it off (benchmarks only). */
  limiter?: RequestLimiter | false;
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

/** Socket errors that show the request never left this machine. */
const NOT_SENT_CODES = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "UND_ERR_CONNECT_TIMEOUT",
]);
const TIMEOUT_CODES = new Set([
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
]);

/** One keep-alive pool per client; retries, the shared limiter and error mapping live here. */
export class Transport {
  readonly #pool: Pool;
  readonly #opts: TransportOptions;
  readonly #basePath: string;
  readonly #limiter: RequestLimiter | undefined;
  readonly #auth: string;

  constructor(opts: TransportOptions) {
    this.#opts = opts;
    this.#auth = `Bearer ${opts.token}`;
    this.#basePath = opts.apiUrl.pathname.replace(/\/+$/, "");
    this.#limiter = opts.limiter === false ? undefined : (opts.limiter ?? limiterFor(opts.apiUrl));
    this.#pool = new Pool(opts.apiUrl.origin, {
      connections: 32,
      keepAliveTimeout: 10_000,
      connect: { timeout: Math.min(opts.timeoutMs, 10_000) },
      headersTimeout: opts.timeoutMs,
      bodyTimeout: opts.timeoutMs,
    });
  }

  async request<S extends z.ZodType>(spec: RequestSpec<S>): Promise<z.infer<S>> {
    const search = new URLSearchParams();
    for (const [k, v] of Object.entries(spec.query ?? {})) {
      if (v !== undefined) search.set(k, String(v));
    }
    const qs = search.size > 0 ? `?${search}` : "";
    const fullPath = `${this.#basePath}${spec.path}${qs}`;
    const headers: Record<string, string> = {
      authorization: this.#auth,
      accept: "application/json",
      "user-agent": this.#opts.userAgent,
    };
    if (spec.method === "POST") headers[wireAssumptions.idempotencyHeader] = randomUUID();

    for (let attempt = 0; ; attempt++) {
      const startedAt = performance.now();
      const outcome = await this.#attempt(spec, fullPath, headers);
      logAttempt(spec.method, fullPath, attempt + 1, startedAt, outcome);
      if (outcome.ok) return parseBody(spec.operation, spec.schema, outcome.body);
      const retryable =
        attempt < this.#opts.maxRetries && shouldRetry(spec.method, outcome.failure);
      if (!retryable) throw outcome.error;
      await sleep(outcome.waitMs ?? backoffDelayMs(attempt));
    }
  }

  async #attempt(
    spec: RequestSpec<z.ZodType>,
    fullPath: string,
    baseHeaders: Record<string, string>,
  ): Promise<
    { ok: true; body: unknown } | { ok: false; failure: Failure; error: Error; waitMs?: number }
  > {
    const release = this.#limiter ? await this.#limiter.acquire() : () => undefined;
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
      // One deadline for the whole attempt (undici's own timers are coarse below a second).
      const signal = AbortSignal.timeout(this.#opts.timeoutMs);
      let res;
      try {
        res = await this.#pool.request({
          method: spec.method,
          path: fullPath,
          headers,
          body,
          signal,
        });
      } catch (err) {
        if (body && typeof body !== "string") body.destroy();
        return this.#networkFailure(spec, err, signal.aborted);
      }
      let text: string;
      try {
        text = await res.body.text();
      } catch (err) {
        return this.#networkFailure(spec, err, signal.aborted);
      }
      if (res.statusCode >= 200 && res.statusCode < 300) {
        this.#limiter?.noteSuccess();
        return { ok: true, body: text.length > 0 ? safeJson(text) : {} };
      }
      const wait = retryAfterMs(res.headers);
      if (res.statusCode === 429) this.#limiter?.noteRateLimited(wait ?? 1_000);
      const error: HostingApiError = makeApiError(spec.operation, {
        status: res.statusCode,
        bodyMessage: errorMessageOf(text, res.statusCode),
        method: spec.method,
        path: spec.path,
        requestId: requestIdOf(res.headers),
        retryAfterMs: wait,
      });
      return {
        ok: false,
        failure: { kind: "status", status: res.statusCode },
        error,
        waitMs: wait,
      };
    } finally {
      release();
    }
  }

  #networkFailure(spec: RequestSpec<z.ZodType>, err: unknown, deadlinePassed: boolean) {
    const code = (err as { code?: string } | undefined)?.code ?? "";
    const timeout = deadlinePassed || TIMEOUT_CODES.has(code);
    const reachedServer = !NOT_SENT_CODES.has(code);
    const error = timeout
      ? new HostingTimeoutError(spec.method, spec.path, err)
      : new HostingConnectionError(spec.method, spec.path, err);
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

function requestIdOf(headers: Record<string, string | string[] | undefined>): string | undefined {
  for (const name of wireAssumptions.requestIdHeaders) {
    const v = headers[name];
    if (v) return Array.isArray(v) ? v[0] : v;
  }
  return undefined;
}
