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

  test("a Unix reset time already past is 0; 10^9 - 1 is still seconds from now, 10^9 a Unix time", () => {
    expect(info({ "x-ratelimit-reset": String(NOW_S - 30) })).toStrictEqual({ resetMs: 0 });
    expect(info({ "x-ratelimit-reset": "999999999" })).toStrictEqual({ resetMs: 999_999_999_000 });
    expect(info({ "x-ratelimit-reset": "1000000000" })).toStrictEqual({ resetMs: 0 });
  });

  test("10^12 - 1 is still Unix seconds, 10^12 Unix milliseconds", () => {
    expect(info({ "x-ratelimit-reset": "999999999999" })).toStrictEqual({
      resetMs: 999_999_999_999_000 - NOW,
    });
    expect(info({ "x-ratelimit-reset": "1000000000000" })).toStrictEqual({ resetMs: 0 });
    expect(info({ "x-ratelimit-reset": String(NOW + 30_000) })).toStrictEqual({ resetMs: 30_000 });
  });

  test("milliseconds: 10^12 - 1 is a delay, 10^12 a Unix time", () => {
    expect(retryAfterMs({ "retry-after-ms": "999999999999" }, NOW)).toBe(999_999_999_999);
    expect(retryAfterMs({ "retry-after-ms": "1000000000000" }, NOW)).toBe(0);
  });

  test("keys are read in any case, around spaces; a key-less `=1` is ignored", () => {
    expect(info({ ratelimit: " Remaining = 7 ; RESET=4, =9" })).toStrictEqual({
      remaining: 7,
      resetMs: 4000,
    });
  });

  test("a repeated header: its most cautious value, whichever comes first", () => {
    expect(info({ "ratelimit-limit": ["6", "5"] })).toStrictEqual({ limit: 5 });
    expect(info({ "ratelimit-limit": ["5", "6"] })).toStrictEqual({ limit: 5 });
  });
});

describe("two spellings that disagree: the cautious reading wins, whichever spelling says it", () => {
  // Each spelling in turn says the cautious value: a spelling left unread would show here.
  const limitSpellings: Array<Record<string, string>> = [
    { "ratelimit-policy": "7;w=60" },
    { "ratelimit-policy": '"p";q=7;w=60' },
    { ratelimit: "limit=7" },
    { "ratelimit-limit": "7" },
    { "x-ratelimit-limit": "7" },
  ];
  test.each(limitSpellings)("the smallest quota: %j", (cautious) => {
    expect(
      info({
        "ratelimit-policy": "100;w=60",
        ratelimit: "limit=50",
        "ratelimit-limit": "20",
        "x-ratelimit-limit": "10",
        ...cautious,
      }),
    ).toStrictEqual({ limit: 7, windowMs: 60_000 });
  });

  const remainingSpellings: Array<[string, Record<string, string>]> = [
    ["RateLimit r", { ratelimit: '"p";r=1;t=3' }],
    ["RateLimit remaining", { ratelimit: "remaining=1, reset=3" }],
    ["RateLimit-Remaining", { "ratelimit-remaining": "1" }],
    ["X-RateLimit-Remaining", { "x-ratelimit-remaining": "1" }],
  ];
  test.each(remainingSpellings)("the least remaining: %s", (_name, cautious) => {
    expect(
      info({
        ratelimit: "remaining=8, reset=3",
        "ratelimit-remaining": "6",
        "x-ratelimit-remaining": "5",
        ...cautious,
      }),
    ).toStrictEqual({ remaining: 1, resetMs: 3000 });
  });

  const resetSpellings: Array<[string, Record<string, string>]> = [
    ["RateLimit t", { ratelimit: '"p";r=4;t=9' }],
    ["RateLimit reset", { ratelimit: "remaining=4, reset=9" }],
    ["RateLimit-Reset", { "ratelimit-reset": "9" }],
    ["X-RateLimit-Reset", { "x-ratelimit-reset": "9" }],
  ];
  test.each(resetSpellings)("the latest reset: %s", (_name, cautious) => {
    expect(
      info({
        ratelimit: "remaining=4, reset=2",
        "ratelimit-reset": "3",
        "x-ratelimit-reset": "1",
        ...cautious,
      }),
    ).toStrictEqual({ remaining: 4, resetMs: 9000 });
  });

  test("draft 08's r/t and draft 07's remaining/reset in the same header: the cautious of each", () => {
    expect(info({ ratelimit: '"p";r=1;t=2;remaining=8;reset=9' })).toStrictEqual({
      remaining: 1,
      resetMs: 9000,
    });
  });

  test("the longest window, up to a day; a longer one is no window", () => {
    expect(info({ "ratelimit-policy": "5;w=60, 5;w=86400" })).toStrictEqual({
      limit: 5,
      windowMs: 86_400_000,
    });
    expect(info({ "ratelimit-policy": "5;w=60, 5;w=86401" })).toStrictEqual({
      limit: 5,
      windowMs: 60_000,
    });
  });

  test("a quota of 0 is no quota: the other spelling's stands", () => {
    expect(info({ "ratelimit-limit": "0", "x-ratelimit-limit": "1" })).toStrictEqual({ limit: 1 });
    expect(info({ "ratelimit-limit": "0" })).toStrictEqual({});
  });

  test("q and the leading number of the policy: the smaller", () => {
    expect(info({ "ratelimit-policy": "100;q=7;w=1" })).toStrictEqual({ limit: 7, windowMs: 1000 });
    expect(info({ "ratelimit-policy": "7;q=100;w=1" })).toStrictEqual({ limit: 7, windowMs: 1000 });
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
  test("retry-after-ms first, rounded up, read as asked (no 60 s cap: the deadline bounds it)", () => {
    expect(retryAfterMs({ "retry-after-ms": "250.2", "retry-after": "9" }, NOW)).toBe(251);
    expect(retryAfterMs({ "retry-after-ms": "90000" }, NOW)).toBe(90_000);
    expect(retryAfterMs({ "retry-after-ms": "soon", "retry-after": "2" }, NOW)).toBe(2000);
  });

  test("said twice: the longer wait", () => {
    expect(retryAfterMs({ "retry-after-ms": ["300", "200"] }, NOW)).toBe(300);
    expect(retryAfterMs({ "retry-after": "2, 7" }, NOW)).toBe(7000);
  });

  test("absurdly far: read as 10^15 ms, a finite number", () => {
    expect(retryAfterMs({ "retry-after-ms": "1" + "0".repeat(20) }, NOW)).toBe(1e15);
  });

  test("seconds, with fractions rounded up to the ms", () => {
    expect(retryAfterMs({ "retry-after": "1.5" }, NOW)).toBe(1500);
    expect(retryAfterMs({ "retry-after": "0.0001" }, NOW)).toBe(1);
    expect(retryAfterMs({ "retry-after": " 2 " }, NOW)).toBe(2000);
  });

  test("an HTTP date: the time until it, never negative, as asked however far", () => {
    const at = (s: number) => new Date(NOW + s * 1000).toUTCString();
    expect(retryAfterMs({ "retry-after": at(5) }, NOW)).toBe(5000);
    expect(retryAfterMs({ "retry-after": at(-5) }, NOW)).toBe(0);
    expect(retryAfterMs({ "retry-after": at(3600) }, NOW)).toBe(3_600_000);
  });

  test("an HTTP date in RFC 9110's obsolete forms is read too", () => {
    expect(retryAfterMs({ "retry-after": "Thursday, 01-Jan-26 00:00:05 GMT" }, NOW)).toBe(5000);
    expect(retryAfterMs({ "retry-after": "Thu Jan  1 00:00:05 2026" }, NOW)).toBe(5000);
  });

  test.each([["in 10"], ["Jan -1"], ["Mon, -1"], ["a 5"], ["-5 GMT"], ["year -1"]])(
    "text that is no HTTP date is no wait, not 0: %j",
    (v) => {
      expect(retryAfterMs({ "retry-after": v }, NOW)).toBeUndefined();
      expect(info({ "x-ratelimit-reset": v })).toStrictEqual({});
    },
  );

  test("nothing usable: undefined, and no field in rateLimitInfo", () => {
    expect(retryAfterMs({ "retry-after": "" }, NOW)).toBeUndefined();
    expect(info({ "retry-after": "later" })).toStrictEqual({});
    expect(info({ "retry-after": "3" })).toStrictEqual({ retryAfterMs: 3000 });
  });
});
