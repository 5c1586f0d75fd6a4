import { HostingApiError } from "./api-error";
import type { ApiErrorDetails } from "./api-error";

/** 401: the token is missing, malformed, expired or not accepted. */
export class AuthenticationError extends HostingApiError {
  constructor(details: ApiErrorDetails, code = "HOSTING_UNAUTHORIZED") {
    // The client's words; the provider adds how to set hosting:token (provider-hints.ts).
    super(details, code, "check the API token: it must be a current token of the account");
  }
}
