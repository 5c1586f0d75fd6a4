import { HostingApiError } from "./api-error";
import type { ApiErrorDetails } from "./api-error";

/** 5xx: the service failed; retried before this was thrown. */
export class ServerError extends HostingApiError {
  constructor(details: ApiErrorDetails, code = "HOSTING_SERVER_ERROR") {
    super(details, code);
  }
}
