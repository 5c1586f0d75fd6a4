import { rateLimitInfo } from "../../src/api";
import { retryAfterMs } from "../../src/api/rate-limit-headers";

/*
 * Every spelling of a rate limit a server may send, one at a time and in conflict, and malformed
 * numbers. `toStrictEqual` throughout: a field written as `undefined` is a field a caller sees.
 */

const NOW = Date.parse("2026-01-01T00:00:00Z");
const NOW_S = NOW / 1000;
const info = (headers: Record<string, string | string[]>) => rateLimitInfo(headers, NOW);

describe("each spelling alone", () => {
  test("no rate-limit headers: an empty object, not fields holding undefined", () => {
    expect(info({ "content-type": "application/json" })).toStrictEqual({});
    expect(info({ ratelimit: "", "ratelimit-policy": "" })).toStrictEqual({});
  });

  test("IETF draft 08+: RateLimit-Policy with q and w, RateLimit with r and t", () => {
    expect(
      info({ "ratelimit-policy": '"default";q=100;w=60', ratelimit: '"default";r=50;t=30' }),
    ).toStrictEqual({ limit: 100, windowMs: 60_000, remaining: 50, resetMs: 30_000 });
  });

  test("IETF draft 06/07: RateLimit-Policy led by the quota, RateLimit with named fields", () => {
    expect(
      info({ "ratelimit-policy": "100;w=60", ratelimit: "limit=100, remaining=50, reset=30" }),
    ).toStrictEqual({ limit: 100, windowMs: 60_000, remaining: 50, resetMs: 30_000 });
  });

  test("a policy without a window gives no window field", () => {
    expect(info({ "ratelimit-policy": '"p";q=10' })).toStrictEqual({ limit: 10 });
  });

  test("RateLimit-Limit/-Remaining/-Reset", () => {
    expect(
      info({ "ratelimit-limit": "10", "ratelimit-remaining": "0", "ratelimit-reset": "2" }),
    ).toStrictEqual({ limit: 10, remaining: 0, resetMs: 2000 });
  });

  test("X-RateLimit-* with a reset as a Unix time in seconds", () => {
    expect(
      info({
        "x-ratelimit-limit": "60",
        "x-ratelimit-remaining": "59",
        "x-ratelimit-reset": String(NOW_S + 30),
      }),
    ).toStrictEqual({ limit: 60, remaining: 59, resetMs: 30_000 });
  });

  test("a Unix reset time already past is 0, and 10^9 is still seconds from now", () => {
    expect(info({ "x-ratelimit-reset": String(NOW_S - 30) })).toStrictEqual({ resetMs: 0 });
    expect(info({ "x-ratelimit-reset": "1000000000" })).toStrictEqual({ resetMs: 1e12 });
    expect(info({ "x-ratelimit-reset": "1000000001" })).toStrictEqual({ resetMs: 0 });
  });

  test("keys are read in any case, around spaces; a key-less `=1` is ignored", () => {
    expect(info({ ratelimit: " Remaining = 7 ; RESET=4, =9" })).toStrictEqual({
      remaining: 7,
      resetMs: 4000,
    });
  });

  test("a repeated header: its first value", () => {
    expect(info({ "ratelimit-limit": ["5", "6"] })).toStrictEqual({ limit: 5 });
  });
});

describe("two spellings that disagree: the first in the documented order wins", () => {
  test("RateLimit-Policy's quota over RateLimit's limit over RateLimit-Limit over X-RateLimit-Limit", () => {
    expect(
      info({
        "ratelimit-policy": "100;w=60",
        ratelimit: "limit=50, remaining=5, reset=3",
        "ratelimit-limit": "20",
        "x-ratelimit-limit": "10",
      }),
    ).toMatchObject({ limit: 100 });
    expect(
      info({
        ratelimit: "limit=50, remaining=5, reset=3",
        "ratelimit-limit": "20",
        "ratelimit-remaining": "2",
        "ratelimit-reset": "1",
      }),
    ).toStrictEqual({ limit: 50, remaining: 5, resetMs: 3000 });
    expect(
      info({
        "ratelimit-limit": "20",
        "ratelimit-remaining": "2",
        "ratelimit-reset": "1",
        "x-ratelimit-limit": "10",
        "x-ratelimit-remaining": "1",
        "x-ratelimit-reset": "9",
      }),
    ).toStrictEqual({ limit: 20, remaining: 2, resetMs: 1000 });
  });

  test("draft 08's r/t over draft 07's remaining/reset in the same header", () => {
    expect(info({ ratelimit: '"p";r=1;t=2;remaining=8;reset=9' })).toStrictEqual({
      remaining: 1,
      resetMs: 2000,
    });
  });

  test("q over the leading number of the policy", () => {
    expect(info({ "ratelimit-policy": "100;q=7;w=1" })).toStrictEqual({ limit: 7, windowMs: 1000 });
  });

  test("a malformed spelling does not hide a later good one", () => {
    expect(
      info({ "ratelimit-limit": "ten", "x-ratelimit-limit": "10", ratelimit: "r=-1" }),
    ).toStrictEqual({ limit: 10 });
  });
});

describe("malformed numbers are ignored, not read as NaN or 0", () => {
  test.each([["-5"], ["5s"], ["1e3"], ["5."], [".5"], ["0x10"], ["five"], [""]])("%j", (v) => {
    expect(
      info({ "ratelimit-limit": v, "ratelimit-remaining": v, "ratelimit-reset": v }),
    ).toStrictEqual({});
    expect(info({ "ratelimit-policy": `q=${v};w=${v}` })).toStrictEqual({});
  });

  test("decimals are numbers", () => {
    expect(info({ "ratelimit-reset": "1.5" })).toStrictEqual({ resetMs: 1500 });
  });
});

describe("Retry-After", () => {
  test("retry-after-ms first, rounded up, capped at 60 s", () => {
    expect(retryAfterMs({ "retry-after-ms": "250.2", "retry-after": "9" }, NOW)).toBe(251);
    expect(retryAfterMs({ "retry-after-ms": "90000" }, NOW)).toBe(60_000);
    expect(retryAfterMs({ "retry-after-ms": "soon", "retry-after": "2" }, NOW)).toBe(2000);
  });

  test("seconds, with fractions rounded up to the ms", () => {
    expect(retryAfterMs({ "retry-after": "1.5" }, NOW)).toBe(1500);
    expect(retryAfterMs({ "retry-after": "0.0001" }, NOW)).toBe(1);
    expect(retryAfterMs({ "retry-after": " 2 " }, NOW)).toBe(2000);
  });

  test("an HTTP date: the time until it, never negative, capped at 60 s", () => {
    const at = (s: number) => new Date(NOW + s * 1000).toUTCString();
    expect(retryAfterMs({ "retry-after": at(5) }, NOW)).toBe(5000);
    expect(retryAfterMs({ "retry-after": at(-5) }, NOW)).toBe(0);
    expect(retryAfterMs({ "retry-after": at(3600) }, NOW)).toBe(60_000);
  });

  test("nothing usable: undefined, and no field in rateLimitInfo", () => {
    expect(retryAfterMs({ "retry-after": "" }, NOW)).toBeUndefined();
    expect(info({ "retry-after": "later" })).toStrictEqual({});
    expect(info({ "retry-after": "3" })).toStrictEqual({ retryAfterMs: 3000 });
  });
});
