import { HostingApiError } from "./api-error";
import type { ApiErrorDetails } from "./api-error";

/** 401: the token is missing, malformed, expired or not accepted. */
export class AuthenticationError extends HostingApiError {
  constructor(details: ApiErrorDetails, code = "HOSTING_UNAUTHORIZED") {
    // The client's words; code that configures the client its own way swaps in its own (`fix`).
    super(details, code, {
      option: "token",
      advice: "check the token option: it must be a current API token of the account",
    });
  }
}
