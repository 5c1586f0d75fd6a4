import { HostingApiError } from "./api-error";
import type { ApiErrorDetails } from "./api-error";
import { HOW_TO_SET } from "../credentials";

/** 401: the token is missing, malformed, expired or not accepted. */
export class AuthenticationError extends HostingApiError {
  constructor(details: ApiErrorDetails, code = "HOSTING_UNAUTHORIZED") {
    super(details, code, `check hosting:token: ${HOW_TO_SET["hosting:token"]}`);
  }
}
