import { HostingApiError } from "./api-error";
import type { ApiErrorDetails } from "./api-error";

/** 429: too many requests, still refused after the retries. */
export class RateLimitError extends HostingApiError {
  /** How long the service asked us to wait, when it said. */
  readonly retryAfterMs?: number;

  constructor(details: ApiErrorDetails & { retryAfterMs?: number }) {
    super(details, "HOSTING_RATE_LIMITED");
    this.retryAfterMs = details.retryAfterMs;
  }
}
