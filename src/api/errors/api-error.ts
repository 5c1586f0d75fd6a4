import { HostingError } from "./hosting-error";

export interface ApiErrorDetails {
  status: number;
  /** The `error` field of the body, or a short snippet of a body that was not JSON. */
  bodyMessage: string;
  method: string;
  path: string;
  requestId?: string;
}

/** The API answered with an error status. Subclasses narrow it by status. */
export class HostingApiError extends HostingError {
  readonly status: number;
  readonly bodyMessage: string;
  readonly method: string;
  readonly path: string;
  readonly requestId?: string;

  constructor(details: ApiErrorDetails, code = "HOSTING_API_ERROR") {
    const rid = details.requestId ? ` (request id ${details.requestId})` : "";
    super(
      `${details.method} ${details.path} failed with ${details.status}: ${details.bodyMessage}${rid}`,
      code,
    );
    this.status = details.status;
    this.bodyMessage = details.bodyMessage;
    this.method = details.method;
    this.path = details.path;
    this.requestId = details.requestId;
  }
}
