import { rateLimitInfo } from "../../src/api";
import { retryAfterMs } from "../../src/api/rate-limit-headers";

/*
 * The edges of what a rate-limit header may say: counts that are not whole, the draft 06/07
 * policy's leading quota in its every form, and text that looks like an HTTP date but is not one
 * (`Date.parse` would still read it, some of it as local time). `toStrictEqual` throughout.
 */

const NOW = Date.parse("2026-01-01T00:00:00Z");
const info = (headers: Record<string, string | string[]>) => rateLimitInfo(headers, NOW);

describe("counts are whole numbers", () => {
  test.each([["1.5"], ["9007199254740993"]])("a limit or remaining of %s is none", (v) => {
    expect(info({ "ratelimit-limit": v, "x-ratelimit-remaining": v })).toStrictEqual({});
    expect(info({ ratelimit: `limit=${v}, remaining=${v}` })).toStrictEqual({});
  });

  test("the largest safe integer is still a count", () => {
    expect(info({ "ratelimit-remaining": "9007199254740991" })).toStrictEqual({
      remaining: 9_007_199_254_740_991,
    });
  });

  test("fractions of several digits are read whole", () => {
    expect(retryAfterMs({ "retry-after": "0.0015" }, NOW)).toBe(2);
    expect(retryAfterMs({ "retry-after-ms": "12.25" }, NOW)).toBe(13);
    expect(info({ "ratelimit-reset": "10.125" })).toStrictEqual({ resetMs: 10_125 });
  });
});

describe("the draft 06/07 policy's leading quota", () => {
  test("alone, with its window, or before a space", () => {
    expect(info({ "ratelimit-policy": "100" })).toStrictEqual({ limit: 100 });
    expect(info({ "ratelimit-policy": "100;w=60" })).toStrictEqual({
      limit: 100,
      windowMs: 60_000,
    });
    expect(info({ "ratelimit-policy": "100 ;w=60" })).toStrictEqual({
      limit: 100,
      windowMs: 60_000,
    });
  });

  test("only a number that leads the item: a later parameter's value is not the quota", () => {
    expect(info({ "ratelimit-policy": '"p";w=3;q=100' })).toStrictEqual({
      limit: 100,
      windowMs: 3000,
    });
    expect(info({ "ratelimit-policy": "100x;w=3" })).toStrictEqual({ windowMs: 3000 });
    expect(info({ "ratelimit-policy": "100 5;w=3" })).toStrictEqual({ windowMs: 3000 });
  });
});

describe("an HTTP date in its three forms, and near misses", () => {
  test.each([
    ["IMF-fixdate", "Thu, 01 Jan 2026 00:00:05 GMT", 5000],
    ["IMF with a one-digit day", "Thu, 1 Jan 2026 00:00:05 GMT", 5000],
    ["lower case", "thu, 01 jan 2026 00:00:05 gmt", 5000],
    ["RFC 850, the longest day name", "Wednesday, 31-Dec-25 23:59:59 GMT", 0],
    ["RFC 850, the next day", "Thursday, 01-Jan-26 00:00:07 GMT", 7000],
    ["asctime, a two-digit day", "Sun Jan 11 00:00:00 2026", 864_000_000],
    ["asctime, a one-digit day", "Thu Jan  1 00:00:09 2026", 9000],
    ["IMF, two spaces after the day name", "Thu,  01 Jan 2026 00:00:05 GMT", 5000],
    ["IMF, two spaces before the time", "Thu, 01 Jan 2026  00:00:05 GMT", 5000],
    ["IMF, two spaces before GMT", "Thu, 01 Jan 2026 00:00:05  GMT", 5000],
    ["asctime, two spaces before the time", "Thu Jan  1  00:00:05 2026", 5000],
    ["asctime, two spaces before the year", "Thu Jan  1 00:00:05  2026", 5000],
  ])("%s is read", (_name, date, ms) => {
    expect(retryAfterMs({ "retry-after": date }, NOW)).toBe(ms);
    expect(info({ "x-ratelimit-reset": date })).toStrictEqual({ resetMs: ms });
  });

  test.each([
    ["text before it", "x Thu, 01 Jan 2026 00:00:05 GMT"],
    ["text after it", "Thu, 01 Jan 2026 00:00:05 GMT x"],
    ["no zone (Date.parse reads local time)", "Thu, 01 Jan 2026 00:00:05"],
    ["another zone", "Thu, 01 Jan 2026 00:00:05 UTC"],
    ["an offset after GMT", "Thu, 01 Jan 2026 00:00:05 GMT-0100"],
    ["asctime with a zone after it", "Thu Jan  1 00:00:05 2026 GMT-0100"],
    ["a two-letter day", "Th, 01 Jan 2026 00:00:05 GMT"],
    ["a ten-letter day", "Wednesdayy, 31-Dec-25 23:59:59 GMT"],
    ["a three-digit day", "Thu, 001 Jan 2026 00:00:05 GMT"],
    ["a one-digit hour", "Thu, 01 Jan 2026 0:00:05 GMT"],
    ["a five-digit year", "Thu, 01 Jan 02026 00:00:05 GMT"],
    ["a one-digit year", "Thu, 01 Jan 6 00:00:05 GMT"],
    ["asctime with a two-digit year", "Thu Jan  1 00:00:05 26"],
    ["asctime with a three-digit day", "Thu Jan 001 00:00:05 2026"],
  ])("%s is no date", (_name, text) => {
    expect(retryAfterMs({ "retry-after": text }, NOW)).toBeUndefined();
    expect(info({ "x-ratelimit-reset": text })).toStrictEqual({});
  });
});
