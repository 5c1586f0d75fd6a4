/*
 * What a response says about the caller's rate limit. Servers spell it many ways; each reader
 * below takes one spelling and all of them fill the same shape:
 *   - `retry-after-ms` (milliseconds) and `Retry-After` (seconds or an HTTP date),
 *   - IETF draft `RateLimit-Policy: "p";q=100;w=60` + `RateLimit: "p";r=50;t=30` (draft 08+),
 *   - IETF draft `RateLimit: limit=100, remaining=50, reset=30` + `RateLimit-Policy: 100;w=60`,
 *   - `RateLimit-Limit/-Remaining/-Reset` and `X-RateLimit-Limit/-Remaining/-Reset` (reset in
 *     seconds from now, or a Unix time in seconds when it is that large).
 */

export const RETRY_AFTER_CAP_MS = 60_000;

type HeaderValue = string | string[] | undefined;
/** Response headers by lower-case name, as Node gives them. */
export type Headers = Readonly<Record<string, string | string[] | undefined>>;

/** What a response says about the caller's rate limit; every field is optional. */
export interface RateLimitInfo {
  /** How long the server asked us to wait before the next request (capped at 60 s). */
  retryAfterMs?: number;
  /** The quota: `limit` requests per `windowMs`. */
  limit?: number;
  /** The quota's window, in ms. */
  windowMs?: number;
  /** Requests left in the current window. */
  remaining?: number;
  /** Time until the window resets, in ms. */
  resetMs?: number;
}

const first = (v: HeaderValue) => (Array.isArray(v) ? v[0] : v)?.trim();
const number = (s: string | undefined) =>
  s !== undefined && /^\d+(\.\d+)?$/.test(s) ? Number(s) : undefined;

/** Delay the server asked for (`retry-after-ms`, `Retry-After` seconds or date), capped at 60 s. */
export function retryAfterMs(headers: Headers, now: number = Date.now()): number | undefined {
  const ms = number(first(headers["retry-after-ms"]));
  if (ms !== undefined) return Math.min(RETRY_AFTER_CAP_MS, Math.ceil(ms));
  const ra = first(headers["retry-after"]);
  if (!ra) return undefined;
  const secs = number(ra);
  if (secs !== undefined) return Math.min(RETRY_AFTER_CAP_MS, Math.ceil(secs * 1000));
  const at = Date.parse(ra);
  if (Number.isNaN(at)) return undefined;
  return Math.min(RETRY_AFTER_CAP_MS, Math.max(0, at - now));
}

/** `key=value` pairs of a header, by key, from either `a=1, b=2` or `"p";a=1;b=2`. */
function params(value: string | undefined): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of (value ?? "").split(/[;,]/)) {
    const eq = part.indexOf("=");
    if (eq > 0) out.set(part.slice(0, eq).trim().toLowerCase(), part.slice(eq + 1).trim());
  }
  return out;
}

/** A reset given as seconds from now, or as a Unix time in seconds (X-RateLimit-Reset style). */
function resetToMs(secs: number | undefined, now: number): number | undefined {
  if (secs === undefined) return undefined;
  return secs > 1e9 ? Math.max(0, secs * 1000 - now) : secs * 1000;
}

/** Reads every rate-limit spelling the server may use into one {@link RateLimitInfo}. */
export function rateLimitInfo(headers: Headers, now: number = Date.now()): RateLimitInfo {
  const info: RateLimitInfo = {};
  const set = <K extends keyof RateLimitInfo>(k: K, v: number | undefined) => {
    if (v !== undefined && info[k] === undefined) info[k] = v;
  };
  set("retryAfterMs", retryAfterMs(headers, now));

  const policy = first(headers["ratelimit-policy"]);
  if (policy) {
    const p = params(policy);
    // Draft 08+: q=quota; draft 06/07: the leading number is the quota.
    set("limit", number(p.get("q")) ?? number(/^\s*(\d+)/.exec(policy)?.[1]));
    const w = number(p.get("w"));
    set("windowMs", w === undefined ? undefined : w * 1000);
  }
  const combinedText = first(headers["ratelimit"]);
  if (combinedText) {
    const combined = params(combinedText);
    set("remaining", number(combined.get("r")) ?? number(combined.get("remaining")));
    set("resetMs", resetToMs(number(combined.get("t")) ?? number(combined.get("reset")), now));
    set("limit", number(combined.get("limit")));
  }

  for (const [limit, remaining, reset] of SEPARATE_HEADERS) {
    set("limit", number(first(headers[limit])));
    set("remaining", number(first(headers[remaining])));
    set("resetMs", resetToMs(number(first(headers[reset])), now));
  }
  return info;
}

// Read on every response: the names are spelled out once.
const SEPARATE_HEADERS = ["ratelimit-", "x-ratelimit-"].map(
  (prefix) => [`${prefix}limit`, `${prefix}remaining`, `${prefix}reset`] as const,
);
