import { HostingApiError } from "./api-error";
import type { ApiErrorDetails } from "./api-error";

/** 422: the request was understood but its content is invalid. */
export class UnprocessableEntityError extends HostingApiError {
  constructor(details: ApiErrorDetails, code = "HOSTING_UNPROCESSABLE") {
    super(details, code);
  }
}
