/*
 * Retry decisions. Small on purpose: the policy (what is safe to repeat, how long to wait) is ours,
 * not a library default.
 */

export const RETRY_BASE_DELAY_MS = 500;
export const RETRY_MAX_DELAY_MS = 8_000;
export const RETRY_AFTER_CAP_MS = 60_000;

export type Failure =
  | { kind: "status"; status: number }
  | { kind: "network"; reachedServer: boolean; timeout: boolean }
  /** A reply we will not take (too large): asking again would get the same. */
  | { kind: "refused" };

const IDEMPOTENT = new Set(["GET", "HEAD", "PUT", "DELETE", "OPTIONS"]);

export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

/**
 * GET and DELETE repeat on any transient failure. POST and PATCH repeat only when the request
 * provably was not applied: it never reached the server, or the server refused it with 429.
 */
export function shouldRetry(method: string, failure: Failure): boolean {
  if (failure.kind === "refused") return false;
  if (failure.kind === "status" && !isRetryableStatus(failure.status)) return false;
  if (IDEMPOTENT.has(method)) return true;
  if (failure.kind === "network") return !failure.reachedServer;
  return failure.status === 429;
}

/** Exponential backoff from 0.5 s, capped at 8 s, less up to 25% jitter. */
export function backoffDelayMs(retryIndex: number, random: () => number = Math.random): number {
  const raw = Math.min(RETRY_MAX_DELAY_MS, RETRY_BASE_DELAY_MS * 2 ** retryIndex);
  return Math.round(raw * (1 - 0.25 * random()));
}

type HeaderValue = string | string[] | undefined;

/** Delay the server asked for (`retry-after-ms`, `Retry-After` seconds or date), capped at 60 s. */
export function retryAfterMs(
  headers: Readonly<Record<string, HeaderValue>>,
  now: number = Date.now(),
): number | undefined {
  const first = (v: HeaderValue) => (Array.isArray(v) ? v[0] : v);
  const ms = first(headers["retry-after-ms"]);
  if (ms !== undefined && /^\d+(\.\d+)?$/.test(ms.trim())) {
    return Math.min(RETRY_AFTER_CAP_MS, Math.ceil(Number(ms)));
  }
  const ra = first(headers["retry-after"])?.trim();
  if (!ra) return undefined;
  if (/^\d+(\.\d+)?$/.test(ra)) return Math.min(RETRY_AFTER_CAP_MS, Math.ceil(Number(ra) * 1000));
  const at = Date.parse(ra);
  if (Number.isNaN(at)) return undefined;
  return Math.min(RETRY_AFTER_CAP_MS, Math.max(0, at - now));
}
