import { endpoints } from "./endpoints";
import { HostingApiError, HostingConnectionError, HostingInputError } from "./errors";

/*
 * What is retried, in one place: the policy is ours, not a library default. To change what is
 * retried, edit DEFAULT_RETRY_POLICY; the transport, the limiter, the network errors, the
 * client's options and the provider's own recovery all ask the functions below, which read it.
 */

/** What a call repeats, for how long and how it backs off (undici's retry options, as data). */
export interface RetryPolicy {
  /** Transient failures retried per call after the first attempt; 429s are not counted. */
  readonly maxRetries: number;
  /** How long one call keeps waiting and retrying 429s, in ms (0: no 429 retries). */
  readonly throttleTimeoutMs: number;
  /** Methods safe to repeat on any transient failure; others repeat only when not applied. */
  readonly methods: readonly string[];
  /** Transient statuses: asking again may work. A pair is an inclusive range. */
  readonly statusCodes: readonly (number | readonly [from: number, to: number])[];
  /**
   * Statuses that refuse a request before it takes effect (a 429): any method repeats them, and
   * a request answered with one did not take effect.
   */
  readonly refusedStatusCodes: readonly number[];
  /**
   * Socket error codes that show a request never left this machine (e.g. `ECONNREFUSED`): any
   * method repeats them, and a request that failed with one did not take effect.
   */
  readonly notConnectedCodes: readonly string[];
  /** Exponential backoff: `baseMs · factor^n`, at most `maxMs`, less up to `jitter` of it. */
  readonly backoff: {
    /** The first retry's wait, in ms. */
    readonly baseMs: number;
    /** What each further wait is multiplied by. */
    readonly factor: number;
    /** The longest wait, in ms. */
    readonly maxMs: number;
    /** The share (0 to 1) of a wait taken off at random, so clients do not retry in step. */
    readonly jitter: number;
  };
  /** A DELETE's 404 after a lost reply: the earlier attempt deleted it, so the call succeeds. */
  readonly deleteGoneAfterLostReply: boolean;
}

/** The one declaration of what is retried: the client's default. */
export const DEFAULT_RETRY_POLICY: RetryPolicy = frozen({
  maxRetries: 2,
  throttleTimeoutMs: 600_000,
  methods: ["GET", "HEAD", "PUT", "DELETE", "OPTIONS"],
  statusCodes: [408, 429, [500, Infinity]],
  refusedStatusCodes: [429],
  notConnectedCodes: [
    "ECONNREFUSED",
    "ENOTFOUND",
    "EAI_AGAIN",
    "EHOSTUNREACH",
    "ENETUNREACH",
    "UND_ERR_CONNECT_TIMEOUT",
  ],
  backoff: { baseMs: 500, factor: 2, maxMs: 8_000, jitter: 0.25 },
  deleteGoneAfterLostReply: true,
});

/** A policy frozen through its lists and backoff: it is shared by every client made from it. */
function frozen(p: RetryPolicy): RetryPolicy {
  return Object.freeze({
    ...p,
    methods: Object.freeze([...p.methods]),
    statusCodes: Object.freeze(
      p.statusCodes.map((c) => (typeof c === "number" ? c : Object.freeze([c[0], c[1]] as const))),
    ),
    refusedStatusCodes: Object.freeze([...p.refusedStatusCodes]),
    notConnectedCodes: Object.freeze([...p.notConnectedCodes]),
    backoff: Object.freeze({ ...p.backoff }),
  });
}

/**
 * Resources and data sources: more retries of a call that is safe to repeat, about 15 s with the
 * backoff, so one deployment rides out a flaky moment instead of failing on the third 503.
 */
export const PATIENT_RETRY_POLICY: RetryPolicy = frozen({
  ...DEFAULT_RETRY_POLICY,
  maxRetries: 5,
});

/** Why one attempt of a request failed (a check failure of an input is shared/validate's Failure). */
export type AttemptFailure =
  | { kind: "status"; status: number }
  | {
      kind: "network";
      reachedServer: boolean;
      timeout: boolean;
      /** The upload stalled before its end: the service cannot have acted on it. */
      bodyUnsent?: boolean;
    }
  /**
   * A reply we will not take (too large, not JSON, not the documented shape), or an upload whose
   * archive failed before its end: asking again would get the same. `status` is the reply's, when
   * there was one: a 2xx says the service acted all the same.
   */
  | { kind: "refused"; status?: number };

/** The client's options that say what is retried: `retryPolicy`, and two older spellings. */
export interface RetryOptions {
  retryPolicy?: Partial<RetryPolicy>;
  /** Overrides `retryPolicy.maxRetries`. */
  maxRetries?: number;
  /** Overrides `retryPolicy.throttleTimeoutMs`. */
  throttleTimeoutMs?: number;
}

/**
 * The one policy a client's options make: `retryPolicy` over the default, `backoff` merged field
 * by field (a partial one would leave NaN waits), then the older `maxRetries` and
 * `throttleTimeoutMs` options over it; every field checked, naming the option, before any request.
 */
export function retryPolicyFrom(options: RetryOptions = {}): RetryPolicy {
  const given = options.retryPolicy;
  const policy: RetryPolicy = {
    ...DEFAULT_RETRY_POLICY,
    ...given,
    backoff: { ...DEFAULT_RETRY_POLICY.backoff, ...given?.backoff },
    maxRetries: options.maxRetries ?? given?.maxRetries ?? DEFAULT_RETRY_POLICY.maxRetries,
    throttleTimeoutMs:
      options.throttleTimeoutMs ??
      given?.throttleTimeoutMs ??
      DEFAULT_RETRY_POLICY.throttleTimeoutMs,
  };
  // A field named by the option that set it: `maxRetries`, or `retryPolicy.maxRetries`.
  const name = (field: string) =>
    field in options && (options as Record<string, unknown>)[field] !== undefined
      ? field
      : `retryPolicy.${field}`;
  const bad = (field: string, rule: string) =>
    new HostingInputError(name(field), `${name(field)} must be ${rule}`);
  if (!Number.isInteger(policy.maxRetries) || policy.maxRetries < 0) {
    throw bad("maxRetries", "a whole number ≥ 0");
  }
  if (!Number.isFinite(policy.throttleTimeoutMs) || policy.throttleTimeoutMs < 0) {
    throw bad("throttleTimeoutMs", "a number of ms ≥ 0 (0: do not retry 429s)");
  }
  const status = (n: unknown) => Number.isInteger(n) && (n as number) >= 100;
  const { baseMs, factor, maxMs, jitter } = policy.backoff;
  const ms = (n: number) => Number.isFinite(n) && n >= 0;
  if (!ms(baseMs)) throw bad("backoff.baseMs", "a number of ms ≥ 0");
  if (!(Number.isFinite(factor) && factor >= 1)) throw bad("backoff.factor", "a number ≥ 1");
  if (!ms(maxMs)) throw bad("backoff.maxMs", "a number of ms ≥ 0");
  if (!(Number.isFinite(jitter) && jitter >= 0 && jitter <= 1)) {
    throw bad("backoff.jitter", "a number from 0 to 1");
  }
  if (!Array.isArray(policy.methods) || !policy.methods.every((m) => typeof m === "string")) {
    throw bad("methods", "a list of HTTP method names");
  }
  const range = (c: unknown) =>
    status(c) ||
    (Array.isArray(c) &&
      c.length === 2 &&
      status(c[0]) &&
      (status(c[1]) || c[1] === Infinity) &&
      c[0] <= c[1]);
  if (!Array.isArray(policy.statusCodes) || !policy.statusCodes.every(range)) {
    throw bad("statusCodes", "a list of HTTP statuses or [from, to] pairs");
  }
  if (!Array.isArray(policy.refusedStatusCodes) || !policy.refusedStatusCodes.every(status)) {
    throw bad("refusedStatusCodes", "a list of HTTP statuses");
  }
  const codes = policy.notConnectedCodes;
  if (!Array.isArray(codes) || !codes.every((c) => typeof c === "string")) {
    throw bad("notConnectedCodes", "a list of socket error codes");
  }
  if (typeof policy.deleteGoneAfterLostReply !== "boolean") {
    throw bad("deleteGoneAfterLostReply", "true or false");
  }
  return frozen({ ...policy, methods: policy.methods.map((m) => m.toUpperCase()) });
}

export function isRetryableStatus(status: number, policy = DEFAULT_RETRY_POLICY): boolean {
  return policy.statusCodes.some((c) =>
    typeof c === "number" ? c === status : status >= c[0] && status <= c[1],
  );
}

/**
 * Whether a status refuses the request before it takes effect (a 429): the limiter pauses for it,
 * the transport waits it out until the call's throttle deadline, and any method repeats it.
 */
export function isRefused(status: number, policy = DEFAULT_RETRY_POLICY): boolean {
  return policy.refusedStatusCodes.includes(status);
}

/** Whether a socket error's code shows that the request never left this machine. */
export function isNotConnected(code: unknown, policy = DEFAULT_RETRY_POLICY): boolean {
  return typeof code === "string" && policy.notConnectedCodes.includes(code);
}

/** The POSTs and PATCHes the endpoint table says are safe to send again (`safeToRepeat`). */
const SAFE_OPERATIONS: ReadonlySet<string> = new Set(
  Object.entries(endpoints)
    .filter(([, e]) => "safeToRepeat" in e)
    .map(([name]) => name),
);

/**
 * Whether a request may be sent again whatever became of the first attempt: its method is one of
 * the policy's, or its operation (a client method) sets a state, as the endpoint table says.
 */
export function isSafeToRepeat(
  method: string,
  policy = DEFAULT_RETRY_POLICY,
  operation?: string,
): boolean {
  return (
    policy.methods.includes(method) || (operation !== undefined && SAFE_OPERATIONS.has(operation))
  );
}

/**
 * What is safe to repeat ({@link isSafeToRepeat}) repeats on any transient failure. Other
 * requests repeat only when they provably were not applied: they never reached the server, or
 * the server refused them (429).
 */
export function shouldRetry(
  method: string,
  failure: AttemptFailure,
  operation?: string,
  policy = DEFAULT_RETRY_POLICY,
): boolean {
  if (failure.kind === "refused") return false;
  if (failure.kind === "status" && !isRetryableStatus(failure.status, policy)) return false;
  if (isSafeToRepeat(method, policy, operation)) return true;
  if (failure.kind === "network") return !failure.reachedServer;
  return isRefused(failure.status, policy);
}

/**
 * Whether the service may have applied the request although the reply was lost: it got there,
 * and the failure (a 408 or 5xx, a dropped connection, a timeout) does not say it was refused,
 * or it said 2xx in a reply we cannot use.
 */
export function mayHaveTakenEffect(
  failure: AttemptFailure,
  policy = DEFAULT_RETRY_POLICY,
): boolean {
  if (failure.kind === "network") return failure.reachedServer && !failure.bodyUnsent;
  const { status } = failure;
  if (status === undefined) return false; // an archive that failed before its end
  if (status >= 200 && status < 300) return true;
  return !isRefused(status, policy) && isRetryableStatus(status, policy);
}

/**
 * Whether an error the client threw is a transient failure that asking again may cure: a dropped
 * connection or a timeout, or a transient status other than a refusal (whose waits the client
 * already sat out). The provider's own recovery asks this.
 */
export function isTransientError(err: unknown, policy = DEFAULT_RETRY_POLICY): boolean {
  if (err instanceof HostingConnectionError) return true;
  if (!(err instanceof HostingApiError)) return false;
  return !isRefused(err.status, policy) && isRetryableStatus(err.status, policy);
}

/** What an error's message gains when {@link mayHaveTakenEffect}; then what to check follows. */
export const MAY_HAVE_TAKEN_EFFECT =
  "; the request reached the service and this failure does not show whether it was applied, " +
  "so it may have taken effect";

/** The policy's backoff before retry `retryIndex` (0 for the first), jitter from `random`. */
export function backoffDelayMs(
  retryIndex: number,
  random: () => number = Math.random,
  policy = DEFAULT_RETRY_POLICY,
): number {
  const { baseMs, factor, maxMs, jitter } = policy.backoff;
  // factor^n overflows to Infinity after a long recovery; capped, a 0 ms base stays 0, not NaN.
  const raw = Math.min(maxMs, baseMs * Math.min(factor ** retryIndex, Number.MAX_VALUE));
  return Math.round(raw * (1 - jitter * random()));
}

export { retryAfterMs } from "./rate-limit-headers";

/** What the transport reports before each retry: for debug logs, never holding the token. */
export interface RetryEvent {
  /** The client method, e.g. `listApps`. */
  operation: string;
  /** HTTP method of the request. */
  method: string;
  /** Path of the request, relative to the API URL. */
  path: string;
  /** 1 for the first retry. */
  attempt: number;
  /** `throttled`: a 429, retried until the call's throttle deadline; else a transient failure. */
  reason: "throttled" | "transient";
  /** The HTTP status that caused the retry, when there was a reply. */
  status?: number;
  /** How long this call will wait before its next attempt (the shared pause included). */
  waitMs: number;
  /** What went wrong, in words (never the token). */
  message: string;
}

export type RetryDecision =
  | {
      retry: false;
      /** Set when only the deadline stopped it: the wait (ms from now) that would pass it. */
      pastDeadlineMs?: number;
    }
  | { retry: true; reason: RetryEvent["reason"]; waitMs: number };

/**
 * Whether and when to try again. A 429 is back-pressure, not failure: it is retried for as long
 * as the wait still ends before `deadline`, without using the small budget (the policy's
 * `maxRetries`) that other transient failures have. `transientRetries` counts the retries spent
 * from that budget.
 * A wait the server asks for (on a 429, or a 503's Retry-After) that ends past `deadline` is not
 * waited: the call fails now. Our own backoff (8 s at most) is not held to the deadline.
 */
export function decideRetry(
  method: string,
  failure: AttemptFailure,
  serverWaitMs: number | undefined,
  state: {
    transientRetries: number;
    deadline: number;
    now: number;
    /** The client method that sends it, whose endpoint may be safe to repeat. */
    operation?: string;
  },
  policy = DEFAULT_RETRY_POLICY,
): RetryDecision {
  if (!shouldRetry(method, failure, state.operation, policy)) return { retry: false };
  if (failure.kind === "status" && isRefused(failure.status, policy)) {
    const waitMs = serverWaitMs ?? backoffDelayMs(0, Math.random, policy);
    if (state.now + waitMs > state.deadline) return { retry: false, pastDeadlineMs: waitMs };
    return { retry: true, reason: "throttled", waitMs };
  }
  if (state.transientRetries >= policy.maxRetries) return { retry: false };
  if (serverWaitMs !== undefined && state.now + serverWaitMs > state.deadline) {
    return { retry: false, pastDeadlineMs: serverWaitMs };
  }
  return {
    retry: true,
    reason: "transient",
    waitMs: serverWaitMs ?? backoffDelayMs(state.transientRetries, Math.random, policy),
  };
}
