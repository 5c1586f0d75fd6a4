import type { IncomingMessage, ServerResponse } from "node:http";
import { HostingClient, RateLimitError, RequestLimiter } from "../../src/api";
import { LimiterHoldError } from "../../src/api/errors";
import { MAX_PAUSE_MS } from "../../src/api/limiter";
import { rateLimitInfo } from "../../src/api/rate-limit-headers";
import { MAX_TIMER_MS } from "../../src/base";
import { FAKE_TOKEN, fixtureServer, json } from "../helpers/fixture-server";
import { flush, TestClock } from "../helpers/test-clock";
import { until } from "../helpers/until";

/*
 * Every wait has a deadline. A hostile or broken server states rate limits that are absurd
 * (a reset in Unix milliseconds, a window of 3 000 years, a quota of 0, a Retry-After in the
 * year 56 000): each call still settles by its deadlines, a wait past them fails at once with a
 * RateLimitError saying what was asked and which limit it passed, and no timer is ever set past
 * Node's maximum. Waits run on a manual clock: no real multi-second sleeps.
 */

const overflows: string[] = [];
const onWarning = (w: Error) => {
  if (w.name === "TimeoutOverflowWarning") overflows.push(w.message);
};
beforeAll(() => process.on("warning", onWarning));
afterAll(() => process.off("warning", onWarning));
afterEach(async () => {
  // Warnings are emitted on the next tick.
  await new Promise((r) => setImmediate(r));
  expect(overflows).toEqual([]);
});

type Reply = (req: IncomingMessage, res: ServerResponse) => void;

/** A client of a fixture server, its limiter on a manual clock that starts at the real time. */
async function setup(
  replies: Reply[],
  options: { throttleTimeoutMs?: number; overallTimeoutMs?: number } = {},
) {
  const fx = await fixtureServer(replies);
  const clock = TestClock.manual(Date.now());
  const limiter = new RequestLimiter({ clock });
  const client = new HostingClient({ apiUrl: fx.url, token: FAKE_TOKEN, limiter, ...options });
  return {
    fx,
    clock,
    limiter,
    client,
    close: async () => {
      await client.close();
      await fx.close();
    },
  };
}

/**
 * The outcome of a call that must end without the manual clock moving (nobody moves it here):
 * its real HTTP round trips take what they take; one held on the clock never settles, and fails
 * the test after the bound.
 */
async function settled<T>(p: Promise<T>): Promise<{ value: T } | { error: unknown }> {
  let out: { value: T } | { error: unknown } | undefined;
  p.then(
    (value) => (out = { value }),
    (error: unknown) => (out = { error }),
  );
  await until("the call to end without the clock moving", () => out !== undefined, 20_000);
  return out!;
}

/** Waits (in real time, bounded) until the limiter holds a request on its manual clock. */
async function untilHeld(clock: TestClock) {
  await until("a request held on the limiter's clock", () => clock.pendingTimers > 0, 20_000);
}

describe("reset values are read whatever their unit", () => {
  const now = Date.parse("2026-11-23T12:00:00Z");
  test.each([
    ["delta seconds", "30", 30_000],
    ["a Unix time in seconds", String(now / 1000 + 30), 30_000],
    ["a Unix time in milliseconds", String(now + 30_000), 30_000],
    ["an HTTP date", new Date(now + 30_000).toUTCString(), 30_000],
    ["a Unix time in the past", String(now / 1000 - 30), 0],
    ["an HTTP date in the past", new Date(now - 30_000).toUTCString(), 0],
  ])("X-RateLimit-Reset as %s", (_label, reset, ms) => {
    expect(rateLimitInfo({ "x-ratelimit-reset": reset }, now).resetMs).toBe(ms);
  });

  test.each([["-5"], ["NaN"], ["Infinity"], ["1e3"], ["soon"], [""], ["1" + "0".repeat(400)]])(
    "a reset of %s is no reset at all",
    (reset) => {
      expect(rateLimitInfo({ "x-ratelimit-reset": reset }, now).resetMs).toBe(undefined);
    },
  );

  test("Retry-After as a date in the past is no wait; far in the future it is read as asked", () => {
    expect(rateLimitInfo({ "retry-after": new Date(now - 60_000).toUTCString() }, now)).toEqual({
      retryAfterMs: 0,
    });
    const far = rateLimitInfo({ "retry-after": "Fri, 01 Jan 9999 00:00:00 GMT" }, now);
    expect(far.retryAfterMs).toBe(Date.parse("9999-01-01T00:00:00Z") - now);
    expect(rateLimitInfo({ "retry-after": "-1" }, now)).toEqual({});
  });

  test("a header said twice (or as a list) is read the cautious way", () => {
    expect(
      rateLimitInfo(
        {
          "retry-after": ["2", "7"],
          "x-ratelimit-limit": "100, 10",
          "x-ratelimit-remaining": ["9", "3"],
          "x-ratelimit-reset": "5, 20",
        },
        now,
      ),
    ).toEqual({ retryAfterMs: 7000, limit: 10, remaining: 3, resetMs: 20_000 });
  });

  test("a quota of 0, or a window of none or of 3 000 years, is no quota", () => {
    expect(rateLimitInfo({ "ratelimit-policy": "0;w=60" }, now).limit).toBe(undefined);
    expect(rateLimitInfo({ "ratelimit-policy": "1;w=100000000000" }, now).windowMs).toBe(undefined);
    expect(rateLimitInfo({ "ratelimit-policy": "5;w=0" }, now).windowMs).toBe(undefined);
    expect(rateLimitInfo({ "ratelimit-policy": '"a";q=5;w=60' }, now)).toEqual({
      limit: 5,
      windowMs: 60_000,
    });
  });
});

describe("a wait the server asks for past the deadline fails at once", () => {
  test("a 429 with X-RateLimit-Reset in Unix ms, 2 h ahead, with a 60 s throttle deadline", async () => {
    let resetAt = 0;
    const t = await setup(
      [
        (req, res) => {
          resetAt = t.clock.now() + 2 * 3_600_000;
          json(429, { error: "slow down" }, { "x-ratelimit-reset": String(resetAt) })(req, res);
        },
      ],
      { throttleTimeoutMs: 60_000 },
    );
    try {
      const outcome = await settled(t.client.listApps());
      expect(outcome).not.toBe("pending");
      const err = (outcome as { error: RateLimitError }).error;
      expect(err).toBeInstanceOf(RateLimitError);
      expect(err.code).toBe("HOSTING_RATE_LIMITED");
      expect(err.retryAfterMs).toBe(2 * 3_600_000);
      expect(err.waitLimit).toBe("throttleTimeoutMs");
      expect(err.waitLimitMs).toBe(60_000);
      expect(err.message).toMatch(/asked to wait 2 h .*throttleTimeoutMs: 60 s/);
      expect(t.fx.seen).toHaveLength(1);
    } finally {
      await t.close();
    }
  });

  test("a 429 whose Retry-After is a date in the year 9999 fails at once, saying so", async () => {
    const t = await setup([
      json(429, { error: "no" }, { "retry-after": "Fri, 31 Dec 9999 23:59:59 GMT" }),
    ]);
    try {
      const outcome = await settled(t.client.listApps());
      const err = (outcome as { error: RateLimitError }).error;
      expect(err).toBeInstanceOf(RateLimitError);
      expect(err.message).toMatch(/asked to wait [\d,]+ years/);
      expect(err.waitLimit).toBe("throttleTimeoutMs");
      // Other calls are held for at most the limiter's longest pause, not for millennia.
      expect(t.limiter.pausedUntil - t.clock.now()).toBe(MAX_PAUSE_MS);
      expect(t.clock.longestDelay).toBeLessThanOrEqual(MAX_TIMER_MS);
    } finally {
      await t.close();
    }
  });

  test("a later call held by the shared pause past its own deadline fails at once, unsent", async () => {
    const t = await setup([json(429, { error: "no" }, { "retry-after": "600" }), json(200, [])], {
      throttleTimeoutMs: 1000,
    });
    try {
      await expect(t.client.listApps()).rejects.toBeInstanceOf(RateLimitError);
      const outcome = await settled(t.client.listApps());
      const err = (outcome as { error: RateLimitError }).error;
      expect(err).toBeInstanceOf(RateLimitError);
      expect(err.message).toMatch(/^GET \/apps was not sent: a pause the service asked for/);
      expect(err.waitMs).toBe(600_000);
      expect(err.waitLimit).toBe("throttleTimeoutMs");
      expect(err.waitLimitMs).toBe(1000);
      expect(t.fx.seen).toHaveLength(1);
    } finally {
      await t.close();
    }
  });
});

describe("waits the server asks for within the deadline are waited, on the clock", () => {
  test("a 429 with a Unix-ms reset 1.5 s ahead: retried once the clock passes it", async () => {
    const t = await setup([
      (req, res) =>
        json(
          429,
          { error: "slow down" },
          { "x-ratelimit-reset": String(t.clock.now() + 1500) },
        )(req, res),
      json(200, []),
    ]);
    try {
      const call = t.client.listApps();
      await untilHeld(t.clock);
      expect(t.limiter.nextSlotInMs()).toBe(1500);
      await t.clock.advance(1500);
      await expect(call).resolves.toEqual([]);
      expect(t.fx.seen).toHaveLength(2);
    } finally {
      await t.close();
    }
  });
});

describe("one absurd reply does not hold every later call", () => {
  test("after `RateLimit-Policy: 1;w=100000000000`, later calls still go", async () => {
    const t = await setup([json(200, [], { "ratelimit-policy": "1;w=100000000000" })]);
    try {
      await t.client.listApps();
      expect(await settled(t.client.listApps())).toEqual({ value: [] });
      expect(await settled(t.client.listApps())).toEqual({ value: [] });
    } finally {
      await t.close();
    }
  });

  test.each([
    ["throttleTimeoutMs", { throttleTimeoutMs: 1000, overallTimeoutMs: 60_000 }, 1000],
    ["overallTimeoutMs", { throttleTimeoutMs: 600_000, overallTimeoutMs: 2000 }, 2000],
  ] as const)(
    "a stated quota of 0 with a minute to reset: the next call fails at once by %s",
    async (limit, options, limitMs) => {
      const t = await setup(
        [
          json(200, [], {
            "ratelimit-policy": "0;w=60",
            ratelimit: "limit=0, remaining=0, reset=60",
          }),
        ],
        options,
      );
      try {
        await t.client.listApps();
        const outcome = await settled(t.client.listApps());
        const err = (outcome as { error: RateLimitError }).error;
        expect(err).toBeInstanceOf(RateLimitError);
        expect(err.waitLimit).toBe(limit);
        expect(err.waitLimitMs).toBe(limitMs);
        expect(err.waitMs).toBe(60_000);
        expect(t.fx.seen).toHaveLength(1);
      } finally {
        await t.close();
      }
    },
  );
});

describe("the limiter's own waits", () => {
  test("a wait with no known end (a window our in-flight request used up) ends at the deadline", async () => {
    const clock = TestClock.manual();
    const limiter = new RequestLimiter({ clock });
    const first = await limiter.acquire();
    limiter.observe(first, 200, { limit: 1, windowMs: 1000, remaining: 1, resetMs: 1000 });
    first.release();
    await clock.advance(1000); // paced at the quota: one a second
    const second = await limiter.acquire();
    // The window is used up by `second`, which is never answered.
    const third = limiter.acquire(false, clock.now() + 5000);
    let failure: unknown;
    third.catch((e: unknown) => (failure = e));
    await clock.advance(4999);
    expect(failure).toBe(undefined);
    await clock.advance(1);
    await flush();
    expect(failure).toBeInstanceOf(LimiterHoldError);
    expect((failure as LimiterHoldError).heldMs).toBe(undefined);
    expect((failure as LimiterHoldError).reason).toBe("quota");
    second.release();
    expect(clock.pendingTimers).toBe(0);
  });

  test("a deadline years away sets no timer past Node's maximum", async () => {
    const clock = TestClock.manual();
    const limiter = new RequestLimiter({ clock });
    const p = await limiter.acquire();
    limiter.observe(p, 429, { retryAfterMs: 1e13 });
    p.release();
    const waiting = limiter.acquire(false, clock.now() + 1e13);
    let failure: unknown;
    waiting.catch((e: unknown) => (failure = e));
    await flush();
    // The pause (capped at an hour) ends long before the deadline: it waits, with bounded timers.
    expect(failure).toBe(undefined);
    expect(clock.longestDelay).toBeLessThanOrEqual(MAX_TIMER_MS);
    await clock.advance(MAX_PAUSE_MS);
    (await waiting).release();
  });

  test("a wait for a free slot alone is not failed, even past the deadline", async () => {
    const clock = TestClock.manual();
    const limiter = new RequestLimiter({ clock, maxConcurrency: 1 });
    const first = await limiter.acquire(false, clock.now());
    const second = limiter.acquire(false, clock.now() + 10);
    let failure: unknown;
    let granted = false;
    second.then(
      () => (granted = true),
      (e: unknown) => (failure = e),
    );
    await clock.advance(100);
    expect({ failure, granted }).toEqual({ failure: undefined, granted: false }); // still waiting
    first.release();
    await flush();
    expect({ failure, granted, inFlight: limiter.inFlight }).toEqual({
      failure: undefined,
      granted: true,
      inFlight: 1,
    });
    (await second).release();
    expect(limiter.inFlight).toBe(0);
  });
});
