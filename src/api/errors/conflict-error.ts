import { HostingApiError } from "./api-error";
import type { ApiErrorDetails } from "./api-error";

/** 409: the request conflicts with the object's current state. */
export class ConflictError extends HostingApiError {
  constructor(details: ApiErrorDetails, code = "HOSTING_CONFLICT") {
    super(details, code);
  }
}
