import { HostingError } from "./hosting-error";

/** What an error reply carries; the fields of {@link HostingApiError}. */
export interface ApiErrorDetails {
  /** The HTTP status, e.g. 404. */
  status: number;
  /** The `error` field of the body, or a short snippet of a body that was not JSON. */
  bodyMessage: string;
  /** HTTP method of the request. */
  method: string;
  /** Path of the request, relative to the API URL. */
  path: string;
  /** The request id the service sent back, for its support. */
  requestId?: string;
}

/** The API answered with an error status. Subclasses narrow it by status. */
export class HostingApiError extends HostingError {
  /** The HTTP status, e.g. 404. */
  readonly status: number;
  /** The `error` field of the body, or a short snippet of a body that was not JSON. */
  readonly bodyMessage: string;
  /** HTTP method of the request. */
  readonly method: string;
  /** Path of the request, relative to the API URL. */
  readonly path: string;
  /** The request id the service sent back, for its support. */
  readonly requestId?: string;

  /** `hint` says what to check, for statuses whose usual cause is known. */
  constructor(details: ApiErrorDetails, code = "HOSTING_API_ERROR", hint?: string) {
    const rid = details.requestId ? ` (request id ${details.requestId})` : "";
    const fix = hint ? `; ${hint}` : "";
    super(
      `${details.method} ${details.path} failed with ${details.status}: ${details.bodyMessage}${rid}${fix}`,
      code,
    );
    this.status = details.status;
    this.bodyMessage = details.bodyMessage;
    this.method = details.method;
    this.path = details.path;
    this.requestId = details.requestId;
  }
}
