import { refusalOf } from "../refusals";
import { HostingApiError, type ApiErrorDetails } from "./api-error";
import { AuthenticationError } from "./authentication-error";
import { BadRequestError } from "./bad-request-error";
import { ConflictError } from "./conflict-error";
import { NotFoundError } from "./not-found-error";
import { PermissionDeniedError } from "./permission-denied-error";
import { HostingRedirectError } from "./redirect-error";
import { RateLimitError } from "./rate-limit-error";
import { RetentionPeriodError } from "./retention-period-error";
import { ServerError } from "./server-error";
import { UnprocessableEntityError } from "./unprocessable-entity-error";

/** The one status → error-class mapping. `operation` picks the few per-endpoint meanings. */
export function makeApiError(
  operation: string,
  details: ApiErrorDetails & { retryAfterMs?: number; location?: string },
): HostingApiError {
  const { status } = details;
  if ((status === 400 || status === 409 || status === 422) && details.property === undefined) {
    const refusal = refusalOf(details.bodyMessage);
    if (refusal) details = { ...details, ...refusal, hint: details.hint ?? refusal.hint };
  }
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
