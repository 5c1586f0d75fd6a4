import {
  AuthenticationError,
  BadRequestError,
  ConflictError,
  HostingApiError,
  HostingRedirectError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  RetentionPeriodError,
  ServerError,
  UnprocessableEntityError,
  type ApiErrorDetails,
} from "./errors";

/* An error reply's status → its class: the one place a status picks a class. */

/** The one status → error-class mapping. `operation` picks the few per-endpoint meanings. */
export function makeApiError(
  operation: string,
  details: ApiErrorDetails & { retryAfterMs?: number; location?: string },
): HostingApiError {
  const { status } = details;
  if (status >= 300 && status < 400) return new HostingRedirectError(details);
  if (status === 400) return new BadRequestError(details);
  if (status === 401) return new AuthenticationError(details);
  if (status === 403) {
    // Spec §4.3: the only documented 403 of backup deletion is the retention rule.
    return operation === "deleteBackup"
      ? new RetentionPeriodError(details)
      : new PermissionDeniedError(details);
  }
  if (status === 404) return new NotFoundError(details);
  if (status === 409) return new ConflictError(details);
  if (status === 422) return new UnprocessableEntityError(details);
  if (status === 429) return new RateLimitError(details);
  if (status >= 500) return new ServerError(details);
  return new HostingApiError(details);
}
