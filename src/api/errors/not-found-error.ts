import { HostingApiError } from "./api-error";
import type { ApiErrorDetails } from "./api-error";

/** 404: no such object for this user. */
export class NotFoundError extends HostingApiError {
  constructor(details: ApiErrorDetails, code = "HOSTING_NOT_FOUND") {
    super(details, code);
  }
}
