import {
  DEFAULT_RETRY_POLICY,
  HostingClient,
  RequestLimiter,
  ServerError,
  type HostingError,
  type RetryEvent,
  type RetryPolicy,
} from "../../src/api";
import { isTransientError } from "../../src/api/retry";
import { useEmulator } from "../helpers/emulator";
import { FAKE_TOKEN, fixtureServer, json } from "../helpers/fixture-server";
import { TestClock } from "../helpers/test-clock";

/*
 * What is retried is one value (src/api/retry.ts): swapping it changes what the transport repeats
 * and what the provider's own recovery asks again, with no other edit.
 */

const env = useEmulator({ setupDelayMs: 0 });

/** The default, less 503: a policy a maintainer would write by editing the one declaration. */
const WITHOUT_503: RetryPolicy = {
  ...DEFAULT_RETRY_POLICY,
  statusCodes: [408, 429, [500, 502], [504, Infinity]],
};

const client = (retryPolicy?: Partial<RetryPolicy>) =>
  env.client({ retryPolicy, limiter: new RequestLimiter({ clock: TestClock.virtual() }) });

afterEach(() => {
  env.emu.setFaults({});
  env.emu.resetStats();
});

test("the default policy retries a 503: the emulator sees the retry", async () => {
  env.emu.setFaults({ rules: [{ route: "GET /apps", status: 503, times: 1 }] });
  await expect(client().listApps()).resolves.toBeDefined();
  expect(env.emu.stats().requests["GET /apps"]).toBe(2);
});

test("a policy without 503: one request, and the 503 is the caller's", async () => {
  env.emu.setFaults({ rules: [{ route: "GET /apps", status: 503, times: 1 }] });
  await expect(client(WITHOUT_503).listApps()).rejects.toBeInstanceOf(ServerError);
  expect(env.emu.stats().requests["GET /apps"]).toBe(1);
});

test("the provider's recovery reads the same policy", () => {
  const err = new ServerError({ status: 503, bodyMessage: "busy", method: "GET", path: "/apps" });
  expect(isTransientError(err)).toBe(true);
  expect(isTransientError(err, client(WITHOUT_503).retryPolicy)).toBe(false);
  expect(client().retryPolicy).toStrictEqual(DEFAULT_RETRY_POLICY);
});

test("maxRetries and throttleTimeoutMs, the older options, still win over the policy's", () => {
  const c = env.client({ maxRetries: 0, throttleTimeoutMs: 5, retryPolicy: { maxRetries: 7 } });
  expect(c.retryPolicy).toMatchObject({ maxRetries: 0, throttleTimeoutMs: 5 });
});

test("a retryPolicy field of the wrong kind is refused, naming it, before any request", () => {
  const bad: Array<[string, unknown]> = [
    ["backoff.factor", { backoff: { ...DEFAULT_RETRY_POLICY.backoff, factor: 0.5 } }],
    ["backoff.jitter", { backoff: { ...DEFAULT_RETRY_POLICY.backoff, jitter: 2 } }],
    ["statusCodes", { statusCodes: ["503"] }],
    ["methods", { methods: "GET" }],
    ["maxRetries", { maxRetries: -1 }],
    ["throttleTimeoutMs", { throttleTimeoutMs: Number.NaN }],
    ["notConnectedCodes", { notConnectedCodes: [61] }],
  ];
  for (const [field, retryPolicy] of bad) {
    expect(() => env.client({ retryPolicy: retryPolicy as Partial<RetryPolicy> })).toThrow(
      expect.objectContaining({ property: `retryPolicy.${field}` }),
    );
  }
  expect(env.emu.stats().requests).toEqual({});
});

test("maxRetries and throttleTimeoutMs given as options are checked under their own names", () => {
  expect(() => env.client({ maxRetries: 1.5 })).toThrow(
    expect.objectContaining({ property: "maxRetries" }),
  );
  expect(() =>
    env.client({ throttleTimeoutMs: -1, retryPolicy: { throttleTimeoutMs: 5 } }),
  ).toThrow(expect.objectContaining({ property: "throttleTimeoutMs" }));
});

test("a backoff given in part keeps the default's other fields (no NaN waits)", () => {
  const partial = { backoff: { baseMs: 50 } } as unknown as Partial<RetryPolicy>;
  expect(env.client({ retryPolicy: partial }).retryPolicy.backoff).toEqual({
    ...DEFAULT_RETRY_POLICY.backoff,
    baseMs: 50,
  });
});

test("a policy's own refusing status (not a 429) still waits before asking again: the limiter paces it as a 429", async () => {
  env.emu.setFaults({ rules: [{ route: "GET /apps", status: 503, times: 1 }] });
  const waits: number[] = [];
  const c = env.client({
    retryPolicy: { refusedStatusCodes: [429, 503] },
    limiter: new RequestLimiter({ clock: TestClock.virtual() }),
    onRetry: (e) => waits.push(e.waitMs),
  });
  await expect(c.listApps()).resolves.toBeDefined();
  expect(waits).toHaveLength(1);
  expect(waits[0]).toBeGreaterThan(0);
});

test("the default policy cannot be changed in place (every client shares its lists)", () => {
  expect(() => (DEFAULT_RETRY_POLICY.methods as string[]).push("POST")).toThrow(TypeError);
  expect(() => {
    (DEFAULT_RETRY_POLICY.backoff as { baseMs: number }).baseMs = 0;
  }).toThrow(TypeError);
});

test('debugLog must be a boolean: the string "false" is refused, not taken as on', () => {
  expect(() => env.client({ debugLog: "false" as unknown as boolean })).toThrow(
    expect.objectContaining({ property: "debugLog" }),
  );
});

/*
 * Decisions the policy takes for the limiter and the network errors too: a client whose policy
 * says otherwise than the default behaves otherwise, against the emulator's real replies.
 */

test("the shared limiter pauses for what the client's policy calls a refusal, and only that", async () => {
  const pauseAfter = async (status: number, retryPolicy: Partial<RetryPolicy>) => {
    env.emu.setFaults({ rules: [{ route: "GET /apps", status, retryAfterSeconds: 30, times: 1 }] });
    const limiter = new RequestLimiter({ clock: TestClock.virtual() });
    // No retries of either kind: the call ends at the first reply, the limiter's pause still on.
    const policy = { ...retryPolicy, maxRetries: 0, throttleTimeoutMs: 0 };
    const c = env.client({ retryPolicy: policy, limiter });
    await expect(c.listApps()).rejects.toMatchObject({ status });
    return limiter.nextSlotInMs();
  };
  expect(await pauseAfter(429, {})).toBeGreaterThan(25_000);
  expect(await pauseAfter(429, { refusedStatusCodes: [] })).toBe(0);
  expect(await pauseAfter(503, { refusedStatusCodes: [429, 503] })).toBeGreaterThan(25_000);
  expect(await pauseAfter(503, {})).toBe(0);
});

test("a 429 the policy does not call a refusal spends the transient budget, and a POST is not repeated", async () => {
  const sent = async (route: string, call: (c: HostingClient) => Promise<unknown>) => {
    env.emu.resetStats();
    env.emu.setFaults({ rules: [{ route, status: 429, times: 1 }] });
    const limiter = new RequestLimiter({ clock: TestClock.virtual() });
    const retryPolicy = { refusedStatusCodes: [], maxRetries: 0 };
    const err = (await call(env.client({ retryPolicy, limiter })).catch((e: unknown) => e)) as
      HostingError | undefined;
    const { status, mayHaveTakenEffect } = err as HostingError & { status?: number };
    return { status, mayHaveTakenEffect, requests: env.emu.stats().requests[route] };
  };
  expect(await sent("GET /apps", (c) => c.listApps())).toEqual({
    status: 429,
    mayHaveTakenEffect: false,
    requests: 1,
  });
  // Not a refusal, so nothing shows the POST was not applied: the caller is told to check.
  expect(await sent("POST /vms/{vm_id}/start", (c) => c.startVm("vm-1"))).toEqual({
    status: 429,
    mayHaveTakenEffect: true,
    requests: 1,
  });
});

test("which socket errors never reached the server is the policy's: a POST to a closed port", async () => {
  const fx = await fixtureServer([json(200, {})]);
  await fx.close(); // its port now refuses connections
  const startVm = async (retryPolicy: Partial<RetryPolicy>) => {
    const retries: RetryEvent[] = [];
    const backoff = { ...DEFAULT_RETRY_POLICY.backoff, baseMs: 1, maxMs: 1 };
    const c = new HostingClient({
      apiUrl: fx.url,
      token: FAKE_TOKEN,
      limiter: false,
      retryPolicy: { ...retryPolicy, backoff },
      onRetry: (e) => retries.push(e),
    });
    try {
      const err = (await c.startVm("vm-1").catch((e: unknown) => e)) as HostingError;
      return { retries: retries.length, mayHaveTakenEffect: err.mayHaveTakenEffect };
    } finally {
      await c.close();
    }
  };
  // ECONNREFUSED: never sent, so even a POST is repeated, and it did not take effect.
  expect(await startVm({})).toEqual({ retries: 2, mayHaveTakenEffect: false });
  expect(await startVm({ notConnectedCodes: [] })).toEqual({
    retries: 0,
    mayHaveTakenEffect: true,
  });
});

test("an operation the endpoint table marks safe to repeat is repeated whatever the policy's methods", async () => {
  const requests = async (route: string, call: (c: HostingClient) => Promise<unknown>) => {
    env.emu.resetStats();
    env.emu.setFaults({ rules: [{ route, status: 503, times: 1 }] });
    const c = client({ methods: [] });
    await call(c).catch(() => undefined); // the app does not exist: the retry's answer is a 404
    return env.emu.stats().requests[route];
  };
  expect(await requests("POST /apps/{app_id}/web", (c) => c.enableWebAccess("app-1"))).toBe(2);
  expect(await requests("POST /vms/{vm_id}/start", (c) => c.startVm("vm-1"))).toBe(1);
  expect(await requests("GET /apps", (c) => c.listApps())).toBe(1);
});
