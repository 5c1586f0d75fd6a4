import { HostingApiError } from "./api-error";
import type { ApiErrorDetails } from "./api-error";

/** 400: the request was refused as malformed or invalid. */
export class BadRequestError extends HostingApiError {
  constructor(details: ApiErrorDetails, code = "HOSTING_BAD_REQUEST") {
    super(details, code);
  }
}
