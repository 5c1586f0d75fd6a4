import { HostingError, type ClientFix } from "./hosting-error";

/** What a {@link HostingConnectionError} is made from. */
export interface ConnectionErrorDetails {
  /** HTTP method of the request. */
  method: string;
  /** Path of the request, relative to the API URL. */
  path: string;
  /** host:port the client was talking to. */
  address: string;
  /** What happened, in words, without the method and path. */
  what: string;
  /** The client user's fix, added to the message after `what`. */
  fix?: ClientFix;
}

/**
 * The request did not get a whole reply over the network; `cause` holds the socket error.
 * `HOSTING_CONNECTION_FAILED`: could not connect at all; `HOSTING_CONNECTION_LOST`: connected,
 * then the connection closed before a whole reply.
 */
export class HostingConnectionError extends HostingError {
  /** HTTP method of the request. */
  readonly method: string;
  /** Path of the request, relative to the API URL. */
  readonly path: string;
  /** host:port the client was talking to. */
  readonly address: string;

  constructor(details: ConnectionErrorDetails, cause: unknown, code = "HOSTING_CONNECTION_FAILED") {
    const fix = details.fix ? `; ${details.fix.advice}` : "";
    super(`${details.method} ${details.path}: ${details.what}${fix}`, code, {
      cause,
      fix: details.fix,
    });
    this.method = details.method;
    this.path = details.path;
    this.address = details.address;
  }
}
