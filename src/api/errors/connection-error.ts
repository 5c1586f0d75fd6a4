import { HostingError } from "./hosting-error";

/** The request could not be completed over the network; `cause` holds the socket error. */
export class HostingConnectionError extends HostingError {
  /** HTTP method of the request. */
  readonly method: string;
  /** Path of the request, relative to the API URL. */
  readonly path: string;

  constructor(method: string, path: string, cause: unknown, code = "HOSTING_CONNECTION_FAILED") {
    const why = cause instanceof Error ? cause.message : String(cause);
    super(`${method} ${path}: could not reach the Hosting API (${why})`, code, { cause });
    this.method = method;
    this.path = path;
  }
}
