import { HostingApiError } from "./api-error";
import type { ApiErrorDetails } from "./api-error";

/** The client option whose deadline a rate-limit wait would have passed. */
export type WaitLimit = "throttleTimeoutMs" | "overallTimeoutMs";

/**
 * 429: too many requests, still refused after the retries; or a wait the service's rate limit
 * asks for that would end past the call's deadline, failed at once rather than waited out.
 */
export class RateLimitError extends HostingApiError {
  /** How long the service asked us to wait (Retry-After or a reset time), as it asked. */
  readonly retryAfterMs?: number;
  /**
   * How much longer the call would have had to wait when it gave up, in ms; undefined when it
   * was not failed for its deadline, or when the wait had no known end.
   */
  readonly waitMs?: number;
  /** The option whose deadline the wait would have passed; undefined when none did. */
  readonly waitLimit?: WaitLimit;
  /** That option's value, in ms. */
  readonly waitLimitMs?: number;

  constructor(
    details: ApiErrorDetails & {
      retryAfterMs?: number;
      waitMs?: number;
      waitLimit?: WaitLimit;
      waitLimitMs?: number;
    },
    hint?: string,
  ) {
    super(details, "HOSTING_RATE_LIMITED", hint);
    this.retryAfterMs = details.retryAfterMs;
    this.waitMs = details.waitMs;
    this.waitLimit = details.waitLimit;
    this.waitLimitMs = details.waitLimitMs;
  }
}
