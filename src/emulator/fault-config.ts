/*
 * The emulator's fault configuration as plain interfaces (the zod schema in faults.ts checks
 * input at run time and is held equal to these at compile time).
 */

/**
 * One misbehaviour on demand. It matches a route key such as `"POST /apps"` or
 * `"GET /apps/{app_id}/metrics"`.
 */
export interface FaultRule {
  /** The route key to match; `"*"` (the default) matches every route. */
  route?: string;
  /** Answer with this status (400-599) and an `{ error }` body instead of serving the request. */
  status?: number;
  /** Seconds to put in `Retry-After` with `status`. */
  retryAfterSeconds?: number;
  /** Destroy the connection before replying; nothing is applied. */
  reset?: boolean;
  /** Apply the request, then destroy the connection without replying. */
  commitThenDrop?: boolean;
  /**
   * Apply the request, then answer with this status (400-599) instead: a gateway that lost the
   * reply.
   */
  commitThenStatus?: number;
  /** Delay before handling, in ms. */
  latencyMs?: number;
  /** Chance (0 to 1) that the rule fires on a matching request (default 1). */
  probability?: number;
  /** Fire at most this many times (default: unlimited). */
  times?: number;
  /** Let this many matching requests through before the rule may fire (default 0). */
  after?: number;
}

/** A fixed-window request limit per token, answered with 429 and `Retry-After`. */
export interface RateLimitRule {
  /** Requests allowed per window. */
  requests: number;
  /** Window length in ms (default 1000). */
  windowMs?: number;
}

/** Every fault the emulator injects. */
export interface FaultConfig {
  /** Rules, each checked on every request (default none). */
  rules?: FaultRule[];
  /** A per-token rate limit, if any. */
  rateLimit?: RateLimitRule;
}

/** The kinds of fault the emulator counts in its stats. */
export type FaultKind =
  "status" | "reset" | "commitThenDrop" | "commitThenStatus" | "latency" | "rateLimited";
