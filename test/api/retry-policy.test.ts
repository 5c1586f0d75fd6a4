import { DEFAULT_RETRY_POLICY, RequestLimiter, ServerError, type RetryPolicy } from "../../src/api";
import { isTransientError } from "../../src/api/retry";
import { useEmulator } from "../helpers/emulator";
import { VirtualClock } from "../helpers/virtual-clock";

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
  env.client({ retryPolicy, limiter: new RequestLimiter({ clock: new VirtualClock() }) });

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
  ];
  for (const [field, retryPolicy] of bad) {
    expect(() => env.client({ retryPolicy: retryPolicy as Partial<RetryPolicy> })).toThrow(
      expect.objectContaining({ property: `retryPolicy.${field}` }),
    );
  }
  expect(env.emu.stats().requests).toEqual({});
});

test("a backoff given in part keeps the default's other fields (no NaN waits)", () => {
  const partial = { backoff: { baseMs: 50 } } as unknown as Partial<RetryPolicy>;
  expect(env.client({ retryPolicy: partial }).retryPolicy.backoff).toEqual({
    ...DEFAULT_RETRY_POLICY.backoff,
    baseMs: 50,
  });
});

test("a policy's own refusing status (not a 429) still waits its backoff before asking again", async () => {
  env.emu.setFaults({ rules: [{ route: "GET /apps", status: 503, times: 1 }] });
  const waits: number[] = [];
  const c = env.client({
    retryPolicy: { refusedStatusCodes: [429, 503] },
    limiter: new RequestLimiter({ clock: new VirtualClock() }),
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
