import { HostingConnectionError } from "./connection-error";

/** A connect, headers or body timeout expired. */
export class HostingTimeoutError extends HostingConnectionError {
  constructor(method: string, path: string, cause: unknown) {
    super(method, path, cause, "HOSTING_TIMEOUT");
  }
}
