import { HostingConnectionError, type ConnectionErrorDetails } from "./connection-error";

/** Which limit ran out: connecting, no bytes either way for a while, or the whole attempt. */
export type TimeoutPhase = "connect" | "idle" | "overall";

const CODES: Record<TimeoutPhase, string> = {
  connect: "HOSTING_CONNECT_TIMEOUT",
  idle: "HOSTING_TIMEOUT",
  overall: "HOSTING_DEADLINE_EXCEEDED",
};

/** A connect, idle or overall limit ran out; `limitMs` is the limit that did. */
export class HostingTimeoutError extends HostingConnectionError {
  /** Which limit ran out. */
  readonly phase: TimeoutPhase;
  /** The limit that ran out, in ms. */
  readonly limitMs: number;

  constructor(
    details: ConnectionErrorDetails & { phase: TimeoutPhase; limitMs: number },
    cause: unknown,
  ) {
    super(details, cause, CODES[details.phase]);
    this.phase = details.phase;
    this.limitMs = details.limitMs;
  }
}
