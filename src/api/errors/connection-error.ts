import { HostingError } from "./hosting-error";

export interface ConnectionErrorDetails {
  method: string;
  path: string;
  /** host:port the client was talking to. */
  address: string;
  /** What happened, in words, without the method and path. */
  what: string;
}

/**
 * The request did not get a whole reply over the network; `cause` holds the socket error.
 * `HOSTING_CONNECTION_FAILED`: could not connect at all; `HOSTING_CONNECTION_LOST`: connected,
 * then the connection closed before a whole reply.
 */
export class HostingConnectionError extends HostingError {
  readonly method: string;
  readonly path: string;
  readonly address: string;

  constructor(details: ConnectionErrorDetails, cause: unknown, code = "HOSTING_CONNECTION_FAILED") {
    super(`${details.method} ${details.path}: ${details.what}`, code, { cause });
    this.method = details.method;
    this.path = details.path;
    this.address = details.address;
  }
}
