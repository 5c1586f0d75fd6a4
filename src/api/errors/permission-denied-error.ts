import { HostingApiError } from "./api-error";
import type { ApiErrorDetails } from "./api-error";

/** 403: the token may not do this. */
export class PermissionDeniedError extends HostingApiError {
  constructor(details: ApiErrorDetails, code = "HOSTING_FORBIDDEN") {
    super(details, code);
  }
}
