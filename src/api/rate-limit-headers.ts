/*
 * What a response says about the caller's rate limit. Servers spell it many ways; each reader
 * below takes one spelling and all of them fill the same shape:
 *   - `retry-after-ms` (milliseconds) and `Retry-After` (seconds or an HTTP date),
 *   - IETF draft `RateLimit-Policy: "p";q=100;w=60` + `RateLimit: "p";r=50;t=30` (draft 08+),
 *   - IETF draft `RateLimit: limit=100, remaining=50, reset=30` + `RateLimit-Policy: 100;w=60`,
 *   - `RateLimit-Limit/-Remaining/-Reset` and `X-RateLimit-Limit/-Remaining/-Reset`.
 * The headers are hostile until read: a time may be delta seconds, a Unix time in seconds or in
 * milliseconds, or an HTTP date; a value that is negative, not a number, or absurd is no value;
 * where one header says two things (repeated, or a list) the most cautious reading is taken.
 * What the server asks is reported as asked, however long: the transport decides against the
 * call's deadlines, and the limiter bounds what it keeps.
 */

type HeaderValue = string | string[] | undefined;
/** Response headers by lower-case name, as Node gives them. */
export type Headers = Readonly<Record<string, string | string[] | undefined>>;

/** What a response says about the caller's rate limit; every field is optional. */
export interface RateLimitInfo {
  /** How long the server asked us to wait before the next request, as it asked. */
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

/** A window longer than a day is no quota a management API states: such a policy is ignored. */
export const MAX_WINDOW_MS = 86_400_000;
/** Longer waits than this (about 31 700 years) are read as this: numbers stay finite. */
const FAR_MS = 1e15;
/** A number of seconds at least this large is a Unix time, not a delay (31 years). */
const UNIX_SECONDS = 1e9;
/** A number at least this large is a Unix time in milliseconds (the year 2001 on). */
const UNIX_MS = 1e12;

/** RFC 9110's HTTP-date: IMF-fixdate, the obsolete RFC 850 form, or asctime's. */
const HTTP_DATE =
  /^[a-z]{3,9},?\s+(?:\d{1,2}[\s-][a-z]{3}[\s-]\d{2,4}\s+\d{2}:\d{2}:\d{2}\s+gmt|[a-z]{3}\s+\d{1,2}\s+\d{2}:\d{2}:\d{2}\s+\d{4})$/i;

/**
 * Every value a header carries: a repeated header's values, each split at commas. An empty item
 * is kept: it reads as no number, no date and no `key=value`, like any other garbage.
 */
function values(v: HeaderValue, split = true): string[] {
  const all = Array.isArray(v) ? v : v === undefined ? [] : [v];
  return all.flatMap((s) => (split ? String(s).split(",") : [String(s)])).map((s) => s.trim());
}

/** A plain non-negative decimal; anything else (signs, exponents, NaN, Infinity) is none. */
function decimal(s: string | undefined): number | undefined {
  if (s === undefined || !/^\d+(\.\d+)?$/.test(s)) return undefined;
  const n = Number(s);
  return Number.isFinite(n) ? n : undefined;
}

/** A whole count (a limit, what remains). */
function count(s: string | undefined): number | undefined {
  const n = decimal(s);
  return Number.isSafeInteger(n) ? n : undefined;
}

/**
 * A time the server gives as a delay in `unit`, or as a Unix time (seconds or ms), or as an HTTP
 * date: ms from `now`, at least 0 (a time past is no wait).
 */
export function timeToMs(text: string, unit: "s" | "ms", now: number): number | undefined {
  const n = decimal(text);
  let ms: number | undefined;
  if (n === undefined) {
    // Only the shapes of an HTTP date: `Date.parse` alone takes "7", "in 10" or "Jan -1" as a
    // date in 2001, a wait of 0 where the header is garbage.
    const at = HTTP_DATE.test(text) ? Date.parse(text) : NaN;
    ms = Number.isNaN(at) ? undefined : at - now;
  } else if (n >= UNIX_MS) ms = n - now;
  else if (unit === "s" && n >= UNIX_SECONDS) ms = n * 1000 - now;
  else ms = unit === "s" ? n * 1000 : n;
  return ms === undefined ? undefined : Math.min(FAR_MS, Math.max(0, Math.ceil(ms)));
}

/** Every time a header gives: each value whole (an HTTP date has a comma), else each list item. */
function times(v: HeaderValue | string[], unit: "s" | "ms", now: number): number[] {
  const out: number[] = [];
  for (const text of values(v, false)) {
    const whole = timeToMs(text, unit, now);
    if (whole !== undefined) out.push(whole);
    else for (const item of values(text)) out.push(...maybe(timeToMs(item, unit, now)));
  }
  return out;
}

const maybe = <T>(v: T | undefined): T[] => (v === undefined ? [] : [v]);

const most = (ns: Array<number | undefined>) => pick(ns, Math.max);
const least = (ns: Array<number | undefined>) => pick(ns, Math.min);
function pick(ns: Array<number | undefined>, f: (...n: number[]) => number) {
  const known = ns.filter((n): n is number => n !== undefined);
  return known.length > 0 ? f(...known) : undefined;
}

/**
 * Delay the server asked for (`retry-after-ms`, else `Retry-After` seconds or date), as asked;
 * when it says two things, the longer.
 */
export function retryAfterMs(headers: Headers, now: number = Date.now()): number | undefined {
  return (
    most(times(headers["retry-after-ms"], "ms", now)) ??
    most(times(headers["retry-after"], "s", now))
  );
}

/** Every `key=value` of a header, by key: `a=1, b=2`, `"p";a=1;b=2`, or several such items. */
function params(texts: string[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const part of texts.flatMap((t) => t.split(";"))) {
    const eq = part.indexOf("=");
    if (eq <= 0) continue;
    const key = part.slice(0, eq).trim().toLowerCase();
    out.set(key, [...(out.get(key) ?? []), part.slice(eq + 1).trim()]);
  }
  return out;
}

/** Every value `p` holds under any of `keys` (draft 08's and draft 07's names of one field). */
const under = (p: Map<string, string[]>, ...keys: string[]) => keys.flatMap((k) => p.get(k) ?? []);

/** Reads every rate-limit spelling the server may use into one {@link RateLimitInfo}. */
export function rateLimitInfo(headers: Headers, now: number = Date.now()): RateLimitInfo {
  const limits: Array<number | undefined> = [];
  const windows: Array<number | undefined> = [];
  const remainings: Array<number | undefined> = [];
  const resets: Array<number | undefined> = [];

  const policy = values(headers["ratelimit-policy"]);
  const p = params(policy);
  // Draft 08+: q=quota; draft 06/07: each item's leading number is the quota.
  limits.push(...under(p, "q").map(count));
  limits.push(...policy.map((item) => count(/^(\d+)\s*(;|$)/.exec(item)?.[1])));
  windows.push(
    ...under(p, "w")
      .map((w) => decimal(w))
      .map((s) => s && s * 1000),
  );
  const combined = params(values(headers["ratelimit"]));
  remainings.push(...under(combined, "r", "remaining").map(count));
  resets.push(...times(under(combined, "t", "reset"), "s", now));
  limits.push(...under(combined, "limit").map(count));

  for (const [limit, remaining, reset] of SEPARATE_HEADERS) {
    limits.push(...values(headers[limit]).map(count));
    remainings.push(...values(headers[remaining]).map(count));
    resets.push(...times(headers[reset], "s", now));
  }

  const info: RateLimitInfo = {};
  const set = <K extends keyof RateLimitInfo>(k: K, v: number | undefined) => {
    if (v !== undefined) info[k] = v;
  };
  set("retryAfterMs", retryAfterMs(headers, now));
  // The most cautious reading: the smallest quota over the longest window; a quota of 0 or a
  // window of none or over a day is not a quota anyone can pace by, and is left out.
  set("limit", least(limits.filter((n) => n !== undefined && n > 0)));
  set("windowMs", most(windows.filter((w) => w !== undefined && w > 0 && w <= MAX_WINDOW_MS)));
  set("remaining", least(remainings));
  set("resetMs", most(resets));
  return info;
}

// Read on every response: the names are spelled out once.
const SEPARATE_HEADERS = ["ratelimit-", "x-ratelimit-"].map(
  (prefix) => [`${prefix}limit`, `${prefix}remaining`, `${prefix}reset`] as const,
);
