import { RequestLimiter, type Permit } from "../../src/api/limiter";
import { rateLimitInfo, type RateLimitInfo } from "../../src/api/rate-limit-headers";
import { decideRetry } from "../../src/api/retry";
import { flush, TestClock } from "../helpers/test-clock";

/* The limiter's decisions, step by step on a manual clock: no sockets, no sleeps. */

/** A stated quota of 50 a second; its first answer says 49 are left. */
const WINDOW = { limit: 50, windowMs: 1000 };
const FIRST = { ...WINDOW, remaining: 49, resetMs: 1000 };
/** A refusal the window explains: none left, reset and Retry-After both "1 s". */
const SAID_ONE_SECOND = { remaining: 0, resetMs: 1000, retryAfterMs: 1000 };

function setup(maxConcurrency = 32) {
  const clock = TestClock.manual();
  const limiter = new RequestLimiter({ maxConcurrency, clock });
  const granted: Permit[] = [];
  const ask = (n: number) => {
    for (let i = 0; i < n; i++) void limiter.acquire().then((p) => granted.push(p));
    return flush();
  };
  /** Sends `n` requests that succeed with these headers, over `ms` of clock time. */
  const serve = async (ms: number, status = 200, info = {}) => {
    const step = 5;
    for (let t = 0; t < ms; t += step) {
      for (const p of granted.splice(0)) {
        limiter.observe(p, status, info);
        p.release();
      }
      await clock.advance(step);
    }
  };
  /** Answers the oldest request let through, then frees its slot. */
  const answer = (status: number, info: RateLimitInfo = {}) => {
    const p = granted.shift()!;
    limiter.observe(p, status, info);
    p.release();
  };
  /** The window's first answer, then the next request refused `ms` later (a 50/s pace: 20). */
  const refuseSecond = async (info: RateLimitInfo, ms = 20) => {
    await ask(1);
    answer(200, FIRST);
    await ask(1);
    await clock.advance(ms);
    answer(429, { ...WINDOW, ...info });
  };
  return { clock, limiter, granted, ask, serve, answer, refuseSecond };
}

test.each([
  [{ maxConcurrency: 0 }, "maxConcurrency"],
  [Number.NaN, "maxConcurrency"],
  [{ maxConcurrency: 2.5 }, "maxConcurrency"],
  [{ quotaShare: 0 }, "quotaShare"],
  [{ quotaShare: 1.5 }, "quotaShare"],
  [{ burstMs: -1 }, "burstMs"],
  [{ burstMs: Infinity }, "burstMs"],
])("options %p are refused naming %s, not a limiter that holds requests", (options, property) => {
  expect(() => new RequestLimiter(options)).toThrow(expect.objectContaining({ property }));
});

describe("the adaptive limiter's decisions", () => {
  test("one request at a time until a first response, then as many as the concurrency bound", async () => {
    const { limiter, granted, ask, answer } = setup(8);
    await ask(20);
    expect(granted).toHaveLength(1);
    answer(200);
    await flush();
    expect(granted).toHaveLength(8); // no limit known: only the concurrency bound
    expect(limiter.rate).toBeUndefined();
  });

  test("a stated quota without `remaining` paces at 95 % of it before any 429", async () => {
    const { clock, limiter, granted, ask, answer } = setup();
    const quota = { limit: 10, windowMs: 1000 };
    await ask(1);
    answer(200, quota);
    expect(limiter.rate).toBeCloseTo(9.5);
    await ask(100);
    let sent = 0;
    for (let ms = 0; ms < 3000; ms += 10) {
      sent += granted.splice(0).map((p) => p.release()).length;
      await clock.advance(10);
    }
    // 9.5 per second plus the bucket's two tokens of catch-up, never more.
    expect(sent).toBeGreaterThanOrEqual(28);
    expect(sent).toBeLessThanOrEqual(31);
  });

  test("a 429 pauses everyone for Retry-After and cuts the rate to 0.7× what was sent", async () => {
    const { clock, limiter, granted, ask } = setup();
    // A known rate sent: one request every 10 ms (100 a second), each answered at once, for
    // 3.25 s (the 429 lands mid half-second, where the smoothed rate is steady).
    for (let ms = 0; ms < 3250; ms += 10) {
      await ask(1);
      for (const p of granted.splice(0)) {
        limiter.observe(p, 200);
        p.release();
      }
      await clock.advance(10);
    }
    expect(limiter.rate).toBeUndefined(); // unthrottled until the 429
    await ask(1);
    const sent = granted.shift()!;
    limiter.observe(sent, 429, { retryAfterMs: 2000 });
    sent.release();
    expect(limiter.rate).toBeCloseTo(70, 1);
    await ask(10);
    await clock.advance(1990);
    expect(granted).toHaveLength(0); // nobody goes during the pause
    await clock.advance(20);
    expect(granted.length).toBeGreaterThan(0);
    expect(limiter.throttles).toBe(1);
  });

  test("429s answering requests sent before the cut are one congestion event, cut once", async () => {
    const { clock, limiter, ask, granted, serve } = setup();
    const quota = { limit: 100, windowMs: 1000 };
    await ask(1);
    await serve(10, 200, quota);
    await ask(300);
    await serve(2000, 200, quota); // sending at the quota's 95/s
    await clock.advance(300); // 30 more go out, unanswered yet
    const inFlight = granted.splice(0);
    expect(inFlight.length).toBeGreaterThan(20);
    for (const p of inFlight) {
      limiter.observe(p, 429, { retryAfterMs: 100 });
      p.release();
    }
    expect(limiter.throttles).toBe(1);
    expect(limiter.rate).toBeGreaterThan(0.7 * 60);
    expect(limiter.rate).toBeLessThanOrEqual(0.7 * 95);
  });

  test("after a cut, successes probe back up along the cubic curve, never past the quota", async () => {
    const { clock, limiter, ask, granted, answer } = setup();
    await ask(1);
    answer(200, WINDOW);
    await ask(1);
    await clock.advance(100);
    const p = granted.shift()!;
    limiter.observe(p, 429, {});
    p.release();
    const cut = limiter.rate!;
    expect(cut).toBeLessThan(47.5 * 0.71);
    const rates: number[] = [];
    await ask(1000);
    for (let s = 0; s < 10; s++) {
      for (let ms = 0; ms < 1000; ms += 5) {
        for (const q of granted.splice(0)) {
          limiter.observe(q, 200, { limit: 50, windowMs: 1000 });
          q.release();
        }
        await clock.advance(5);
      }
      rates.push(limiter.rate!);
    }
    // Rises (never falls on success) and comes back to the quota's 95 % within a few seconds.
    for (let i = 1; i < rates.length; i++) expect(rates[i]).toBeGreaterThanOrEqual(rates[i - 1]);
    expect(rates[1]).toBeLessThan(47.5);
    expect(rates.at(-1)).toBeCloseTo(47.5);
  });

  test("remaining: 0 pauses everyone until the window resets, before any 429", async () => {
    const { clock, limiter, ask, granted, answer } = setup();
    await ask(1);
    answer(200, { remaining: 0, resetMs: 700 });
    await ask(3);
    await clock.advance(690);
    expect(granted).toHaveLength(0);
    await clock.advance(20);
    expect(granted).toHaveLength(3);
    expect(limiter.throttles).toBe(0);
  });

  // Refusals the window explains, its reset said in whole seconds ("1 s") by both headers, as the
  // emulator says it. Four programs of a shared token that each waited a whole second from such
  // a refusal sat idle for most of the next window.
  test.each([
    [
      "10 ms before the reset: until the end of the window that began by the first answer",
      990,
      1000,
    ],
    [
      "past the end of the window we knew (another program used up the next before any answer " +
        "of ours showed it): until the next boundary of back-to-back windows, 700 ms on",
      1300,
      2000,
    ],
    [
      "half a millisecond before the next boundary (a clock with fractions of a ms): that " +
        "boundary, not one a window later",
      1999.5,
      2000,
    ],
  ])("a 429 the window explains, %s; the pace is kept", async (_case, ms, end) => {
    const { clock, limiter, refuseSecond } = setup();
    const start = clock.now();
    await refuseSecond(SAID_ONE_SECOND, ms);
    expect(limiter.pausedUntil).toBe(start + end);
    // The next window goes at the quota's pace, not 0.7× of what this program sent.
    expect(limiter.throttles).toBe(0);
    expect(limiter.rate).toBe(50);
  });

  test("a 429 whose window was never placed (a quota stated without `remaining`) waits the server's reset", async () => {
    const { clock, limiter, ask, answer } = setup();
    await ask(1);
    answer(200, WINDOW);
    await clock.advance(300);
    await ask(1);
    answer(429, { ...WINDOW, resetMs: 1000, retryAfterMs: 1000 });
    expect(limiter.pausedUntil).toBe(clock.now() + 1000);
  });

  test("a 429 while the window says requests remain cuts the pace: a limit besides the window", async () => {
    const { limiter, refuseSecond } = setup();
    await refuseSecond({ remaining: 30, resetMs: 980 });
    expect(limiter.throttles).toBe(1);
    expect(limiter.rate).toBeLessThan(50);
  });

  test("a Retry-After longer than the window's reset is honoured", async () => {
    const { clock, limiter, refuseSecond } = setup();
    await refuseSecond({ retryAfterMs: 5000, remaining: 0, resetMs: 1000 });
    expect(limiter.pausedUntil).toBe(clock.now() + 5000);
  });

  test("no timer is left behind when nobody waits", async () => {
    const { clock, ask, answer } = setup();
    await ask(1);
    answer(429, { retryAfterMs: 5000 });
    expect(clock.pendingTimers).toBe(0);
  });
});

describe("reading the rate-limit headers", () => {
  const now = Date.parse("2026-01-01T00:00:00Z");
  test("IETF draft 08+: RateLimit-Policy q/w and RateLimit r/t", () => {
    expect(
      rateLimitInfo(
        { "ratelimit-policy": '"default";q=100;w=60', ratelimit: '"default";r=40;t=12' },
        now,
      ),
    ).toEqual({ limit: 100, windowMs: 60_000, remaining: 40, resetMs: 12_000 });
  });
  test("IETF draft 06/07: RateLimit limit/remaining/reset and a numeric policy", () => {
    expect(
      rateLimitInfo(
        { ratelimit: "limit=10, remaining=0, reset=3", "ratelimit-policy": "10;w=1" },
        now,
      ),
    ).toEqual({ limit: 10, windowMs: 1000, remaining: 0, resetMs: 3000 });
  });
  test("X-RateLimit-* with a Unix-time reset, and Retry-After", () => {
    expect(
      rateLimitInfo(
        {
          "x-ratelimit-limit": "400",
          "x-ratelimit-remaining": "7",
          "x-ratelimit-reset": String(now / 1000 + 30),
          "retry-after": "2",
        },
        now,
      ),
    ).toEqual({ retryAfterMs: 2000, limit: 400, remaining: 7, resetMs: 30_000 });
  });
  test("retry-after-ms wins over Retry-After; nothing known is nothing said", () => {
    expect(rateLimitInfo({ "retry-after-ms": "150", "retry-after": "9" }, now)).toEqual({
      retryAfterMs: 150,
    });
    expect(rateLimitInfo({}, now)).toEqual({});
  });
});

describe("when to retry", () => {
  const state = (over: Partial<Parameters<typeof decideRetry>[3]> = {}) => ({
    transientRetries: 0,
    deadline: 10_000,
    now: 0,
    ...over,
  });
  const throttled = { kind: "status" as const, status: 429 };
  test("a 429 is retried past maxRetries, as long as the wait ends before the deadline", () => {
    expect(decideRetry("POST", throttled, 1000, state({ transientRetries: 2 }))).toEqual({
      retry: true,
      reason: "throttled",
      waitMs: 1000,
    });
    expect(decideRetry("GET", throttled, 1000, state({ now: 9500 }))).toEqual({
      retry: false,
      pastDeadlineMs: 1000,
    });
  });
  test("other transient failures keep their small budget", () => {
    const busy = { kind: "status" as const, status: 503 };
    expect(decideRetry("GET", busy, 0, state({ transientRetries: 1 }))).toMatchObject({
      retry: true,
      reason: "transient",
    });
    expect(decideRetry("GET", busy, 0, state({ transientRetries: 2 }))).toEqual({ retry: false });
    expect(decideRetry("POST", busy, 0, state())).toEqual({ retry: false });
  });
});
