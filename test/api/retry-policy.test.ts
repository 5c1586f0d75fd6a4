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
