import { HostingApiError } from "./api-error";
import type { ApiErrorDetails } from "./api-error";

/** 401: the token is missing, malformed, expired or not accepted. */
export class AuthenticationError extends HostingApiError {
  constructor(details: ApiErrorDetails, code = "HOSTING_UNAUTHORIZED") {
    super(details, code);
  }
}
