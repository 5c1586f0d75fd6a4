import { HostingClient } from "../../src/api";
import {
  backoffDelayMs,
  DEFAULT_RETRY_POLICY,
  decideRetry,
  isRetryableStatus,
  mayHaveTakenEffect,
  shouldRetry,
  type AttemptFailure,
} from "../../src/api/retry";
import { FAKE_TOKEN, fixtureServer, json } from "../helpers/fixture-server";

/*
 * The exact edges of the retry policy: which statuses, which deadline, and when a failed POST is
 * reported as "may have taken effect" (the fact that sends a create into lost-reply recovery).
 */

const status = (s: number): AttemptFailure => ({ kind: "status", status: s });
const net = (reachedServer: boolean, extra: { bodyUnsent?: boolean } = {}): AttemptFailure => ({
  kind: "network",
  reachedServer,
  timeout: false,
  ...extra,
});

/** One POST against scripted replies; the error it ends with and how many requests were sent. */
async function startVm(replies: Parameters<typeof fixtureServer>[0], throttleTimeoutMs = 600_000) {
  const fx = await fixtureServer(replies);
  const client = new HostingClient({
    apiUrl: fx.url,
    token: FAKE_TOKEN,
    maxRetries: 2,
    limiter: false,
    throttleTimeoutMs,
  });
  try {
    const err = await client.startVm("vm-1").then(
      () => undefined,
      (e: unknown) => e as Error & { mayHaveTakenEffect?: boolean; status?: number },
    );
    return { err, requests: fx.seen.length };
  } finally {
    await client.close();
    await fx.close();
  }
}

const NOTE =
  "; the request reached the service and this failure does not show whether it was applied, " +
  "so it may have taken effect";

describe("a failed POST says whether it may have taken effect", () => {
  test("a 429 whose wait ends past the throttle deadline: refused, so not applied", async () => {
    const { err, requests } = await startVm(
      [json(429, { error: "slow down" }, { "retry-after": "5" })],
      1000,
    );
    expect(err?.status).toBe(429);
    expect(err?.mayHaveTakenEffect).toBe(false);
    expect(err?.message).not.toContain("may have taken effect");
    expect(requests).toBe(1);
  });

  test("a 500: reached the service, not repeated, and said in the user's words", async () => {
    const { err, requests } = await startVm([json(500, { error: "boom" })]);
    expect(err?.status).toBe(500);
    expect(err?.mayHaveTakenEffect).toBe(true);
    expect(err?.message).toContain(NOTE);
    expect(requests).toBe(1);
  });

  test("a 300 is not a success: nothing was applied", async () => {
    const { err, requests } = await startVm([json(300, { error: "choose" })]);
    expect(err?.status).toBe(300);
    expect(err?.mayHaveTakenEffect).toBe(false);
    expect(requests).toBe(1);
  });

  test("a 2xx with a reply we cannot use: the service acted", async () => {
    const { err, requests } = await startVm([json(299, { unexpected: true })]);
    expect(err?.mayHaveTakenEffect).toBe(true);
    expect(err?.message).toContain(NOTE);
    expect(requests).toBe(1);
  });
});

describe("decideRetry", () => {
  const at = (now: number, deadline: number, transientRetries = 0) => ({
    now,
    deadline,
    transientRetries,
  });

  test("a 429 is retried when its wait ends exactly at the deadline, not a millisecond later", () => {
    expect(decideRetry("POST", status(429), 1000, at(5000, 6000))).toStrictEqual({
      retry: true,
      reason: "throttled",
      waitMs: 1000,
    });
    // One past: fails now, saying the wait that would pass the deadline (the RateLimitError's).
    expect(decideRetry("POST", status(429), 1001, at(5000, 6000))).toStrictEqual({
      retry: false,
      pastDeadlineMs: 1001,
    });
  });

  test("a 429 without a server wait waits the first backoff, 375 to 500 ms", () => {
    const stopped = decideRetry("GET", status(429), undefined, at(0, 374));
    expect(Object.keys(stopped).sort()).toEqual(["pastDeadlineMs", "retry"]);
    expect(stopped.retry).toBe(false);
    const past = (stopped as { pastDeadlineMs: number }).pastDeadlineMs;
    expect(past).toBeGreaterThanOrEqual(375);
    expect(past).toBeLessThanOrEqual(500);
    const plan = decideRetry("GET", status(429), undefined, at(0, 500));
    expect(plan).toMatchObject({ retry: true, reason: "throttled" });
    const waitMs = (plan as { waitMs: number }).waitMs;
    expect(waitMs).toBeGreaterThanOrEqual(375);
    expect(waitMs).toBeLessThanOrEqual(500);
  });

  test("a transient failure's server wait is held to the deadline too; the budget is checked first", () => {
    expect(decideRetry("GET", status(503), 1000, at(5000, 6000))).toStrictEqual({
      retry: true,
      reason: "transient",
      waitMs: 1000,
    });
    expect(decideRetry("GET", status(503), 1001, at(5000, 6000))).toStrictEqual({
      retry: false,
      pastDeadlineMs: 1001,
    });
    // Out of budget: no deadline was in the way, so no pastDeadlineMs.
    expect(decideRetry("GET", status(503), 1001, at(5000, 6000, 2))).toStrictEqual({
      retry: false,
    });
    // Our own backoff (8 s at most) is not held to the deadline.
    expect(decideRetry("GET", status(503), undefined, at(5000, 5000))).toMatchObject({
      retry: true,
      reason: "transient",
    });
  });

  test("429s do not spend the transient budget; other failures do", () => {
    expect(decideRetry("GET", status(429), 10, at(0, 100, 5))).toMatchObject({ retry: true });
    expect(decideRetry("GET", status(503), 10, at(0, 100, 1))).toStrictEqual({
      retry: true,
      reason: "transient",
      waitMs: 10,
    });
    expect(decideRetry("GET", status(503), 10, at(0, 100, 2))).toStrictEqual({ retry: false });
  });

  test("a transient failure without a server wait backs off by how many retries were spent", () => {
    const plan = decideRetry("GET", net(true), undefined, at(0, 0, 2), {
      ...DEFAULT_RETRY_POLICY,
      maxRetries: 5,
    }) as { waitMs: number };
    expect(plan.waitMs).toBeGreaterThanOrEqual(1500);
    expect(plan.waitMs).toBeLessThanOrEqual(2000);
  });

  test("what must not be repeated is not, whatever the budget", () => {
    expect(decideRetry("POST", status(503), 10, at(0, 1e9))).toStrictEqual({ retry: false });
    expect(decideRetry("GET", status(404), 10, at(0, 1e9))).toStrictEqual({ retry: false });
    expect(decideRetry("GET", { kind: "refused" }, 10, at(0, 1e9))).toStrictEqual({
      retry: false,
    });
  });
});

test("retryable statuses: 408, 429 and 500 up; not 407, 409, 428, 499", () => {
  const table = [407, 408, 409, 428, 429, 499, 500, 599].map((s) => [s, isRetryableStatus(s)]);
  expect(table).toEqual([
    [407, false],
    [408, true],
    [409, false],
    [428, false],
    [429, true],
    [499, false],
    [500, true],
    [599, true],
  ]);
});

test("what each method repeats", () => {
  for (const m of ["GET", "HEAD", "PUT", "DELETE", "OPTIONS"]) {
    expect([m, shouldRetry(m, status(503)), shouldRetry(m, net(true))]).toEqual([m, true, true]);
  }
  for (const m of ["POST", "PATCH"]) {
    expect([
      m,
      shouldRetry(m, status(503)),
      shouldRetry(m, status(429)),
      shouldRetry(m, net(true)),
      shouldRetry(m, net(false)),
      shouldRetry(m, { kind: "refused", status: 200 }),
    ]).toEqual([m, false, true, false, true, false]);
  }
  expect(shouldRetry("GET", { kind: "refused" })).toBe(false);
});

test("mayHaveTakenEffect at every edge", () => {
  const cases: Array<[string, AttemptFailure, boolean]> = [
    ["never reached", net(false), false],
    ["reached, reply lost", net(true), true],
    ["upload stalled before its end", net(true, { bodyUnsent: true }), false],
    ["199", status(199), false],
    ["200", status(200), true],
    ["299", status(299), true],
    ["300", status(300), false],
    ["404", status(404), false],
    ["408", status(408), true],
    ["429", status(429), false],
    ["500", status(500), true],
    ["refused without a reply", { kind: "refused" }, false],
    ["refused 2xx", { kind: "refused", status: 201 }, true],
    ["refused 4xx", { kind: "refused", status: 413 }, false],
  ];
  expect(cases.map(([name, f]) => [name, mayHaveTakenEffect(f)])).toEqual(
    cases.map(([name, , want]) => [name, want]),
  );
});

test("backoff: 0.5 s doubling to the 8 s cap, less up to 25%, rounded", () => {
  expect([0, 1, 2, 3, 4, 5].map((i) => backoffDelayMs(i, () => 0))).toEqual([
    500, 1000, 2000, 4000, 8000, 8000,
  ]);
  expect(backoffDelayMs(0, () => 0.5)).toBe(438);
  expect(backoffDelayMs(4, () => 1)).toBe(6000);
});
