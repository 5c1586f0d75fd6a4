import { HostingResponseError } from "./response-error";

const MIB = 1024 * 1024;

/** A reply past the size limit, refused while streaming (never read whole, never retried). */
export class HostingReplyTooLargeError extends HostingResponseError {
  /** The size limit, in bytes (`maxResponseBytes`). */
  readonly limitBytes: number;

  constructor(operation: string, method: string, path: string, limitBytes: number) {
    const size = limitBytes % MIB === 0 ? `${limitBytes / MIB} MiB` : `${limitBytes} bytes`;
    super(operation, "", "", {
      code: "HOSTING_REPLY_TOO_LARGE",
      message: `${operation}: ${method} ${path}: reply larger than ${size}, refused`,
      fix: {
        option: "maxResponseBytes",
        advice: "raise the maxResponseBytes option if such a reply is expected",
      },
    });
    this.limitBytes = limitBytes;
  }
}
