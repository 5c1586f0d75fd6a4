/*
 * Retry decisions. Small on purpose: the policy (what is safe to repeat, how long to wait) is ours,
 * not a library default.
 */

export const RETRY_BASE_DELAY_MS = 500;
export const RETRY_MAX_DELAY_MS = 8_000;

export type Failure =
  | { kind: "status"; status: number }
  | {
      kind: "network";
      reachedServer: boolean;
      timeout: boolean;
      /** The upload stalled before its end: the service cannot have acted on it. */
      bodyUnsent?: boolean;
    }
  /**
   * A reply we will not take (too large, not JSON, not the documented shape), or an upload whose
   * archive failed before its end: asking again would get the same. `status` is the reply's, when
   * there was one: a 2xx says the service acted all the same.
   */
  | { kind: "refused"; status?: number };

const IDEMPOTENT = new Set(["GET", "HEAD", "PUT", "DELETE", "OPTIONS"]);

export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

/**
 * GET and DELETE repeat on any transient failure, and so does a POST or PATCH that is safe to
 * repeat (the endpoint table says why). Other POSTs and PATCHes repeat only when the request
 * provably was not applied: it never reached the server, or the server refused it with 429.
 */
export function shouldRetry(method: string, failure: Failure, safeToRepeat = false): boolean {
  if (failure.kind === "refused") return false;
  if (failure.kind === "status" && !isRetryableStatus(failure.status)) return false;
  if (safeToRepeat || IDEMPOTENT.has(method)) return true;
  if (failure.kind === "network") return !failure.reachedServer;
  return failure.status === 429;
}

/**
 * Whether the service may have applied the request although the reply was lost: it got there,
 * and the failure (a 408 or 5xx, a dropped connection, a timeout) does not say it was refused,
 * or it said 2xx in a reply we cannot use.
 */
export function mayHaveTakenEffect(failure: Failure): boolean {
  if (failure.kind === "network") return failure.reachedServer && !failure.bodyUnsent;
  const { status } = failure;
  if (status === undefined) return false; // an archive that failed before its end
  return (status >= 200 && status < 300) || (status !== 429 && isRetryableStatus(status));
}

/** What an error's message gains when {@link mayHaveTakenEffect}; then what to check follows. */
export const MAY_HAVE_TAKEN_EFFECT =
  "; the request reached the service and this failure does not show whether it was applied, " +
  "so it may have taken effect";

/** Exponential backoff from 0.5 s, capped at 8 s, less up to 25% jitter. */
export function backoffDelayMs(retryIndex: number, random: () => number = Math.random): number {
  const raw = Math.min(RETRY_MAX_DELAY_MS, RETRY_BASE_DELAY_MS * 2 ** retryIndex);
  return Math.round(raw * (1 - 0.25 * random()));
}

export { retryAfterMs } from "./rate-limit-headers";

/** What the transport reports before each retry: for debug logs, never holding the token. */
export interface RetryEvent {
  /** The client method, e.g. `listApps`. */
  operation: string;
  /** HTTP method of the request. */
  method: string;
  /** Path of the request, relative to the API URL. */
  path: string;
  /** 1 for the first retry. */
  attempt: number;
  /** `throttled`: a 429, retried until the call's throttle deadline; else a transient failure. */
  reason: "throttled" | "transient";
  /** The HTTP status that caused the retry, when there was a reply. */
  status?: number;
  /** How long this call will wait before its next attempt (the shared pause included). */
  waitMs: number;
  /** What went wrong, in words (never the token). */
  message: string;
}

export type RetryDecision =
  | {
      retry: false;
      /** Set when only the deadline stopped it: the wait (ms from now) that would pass it. */
      pastDeadlineMs?: number;
    }
  | { retry: true; reason: RetryEvent["reason"]; waitMs: number };

/**
 * Whether and when to try again. A 429 is back-pressure, not failure: it is retried for as long
 * as the wait still ends before `deadline`, without using the small budget (`maxRetries`) that
 * other transient failures have. `transientRetries` counts the retries spent from that budget.
 * A wait the server asks for (on a 429, or a 503's Retry-After) that ends past `deadline` is not
 * waited: the call fails now. Our own backoff (8 s at most) is not held to the deadline.
 */
export function decideRetry(
  method: string,
  failure: Failure,
  serverWaitMs: number | undefined,
  state: {
    transientRetries: number;
    maxRetries: number;
    deadline: number;
    now: number;
    safeToRepeat?: boolean;
  },
): RetryDecision {
  if (!shouldRetry(method, failure, state.safeToRepeat)) return { retry: false };
  if (failure.kind === "status" && failure.status === 429) {
    const waitMs = serverWaitMs ?? backoffDelayMs(0);
    if (state.now + waitMs > state.deadline) return { retry: false, pastDeadlineMs: waitMs };
    return { retry: true, reason: "throttled", waitMs };
  }
  if (state.transientRetries >= state.maxRetries) return { retry: false };
  if (serverWaitMs !== undefined && state.now + serverWaitMs > state.deadline) {
    return { retry: false, pastDeadlineMs: serverWaitMs };
  }
  return {
    retry: true,
    reason: "transient",
    waitMs: serverWaitMs ?? backoffDelayMs(state.transientRetries),
  };
}
