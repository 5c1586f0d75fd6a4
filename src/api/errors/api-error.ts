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
