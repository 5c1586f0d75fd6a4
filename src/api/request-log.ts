import type { AttemptFailure, RetryEvent } from "./retry";

/*
 * The client's `debugLog` (`HOSTING_LOG=debug`): one line per HTTP attempt on stderr, for seeing
 * what the provider sent. Lines are built from the method, path, status and timings only (never
 * headers or bodies), and anything shaped like a JWT is masked as a second guard, so the token
 * cannot appear.
 */

const JWT = /[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}/g;

/** Masks JWT-shaped text. */
function redact(text: string): string {
  return text.replace(JWT, "[redacted]");
}

function write(line: string): void {
  process.stderr.write(`hosting debug: ${redact(line)}\n`);
}

/** What the transport knows after one attempt. */
export interface AttemptOutcome {
  ok: boolean;
  failure?: AttemptFailure;
  error?: Error;
  waitMs?: number;
}

/** One attempt (1-based): `GET /apps -> ok in 12 ms (attempt 1)`; a failure gives its status or
 * error class and any Retry-After. */
export function logAttempt(
  method: string,
  path: string,
  attempt: number,
  startedAt: number,
  outcome: AttemptOutcome,
): void {
  const ms = Math.round(performance.now() - startedAt);
  const result = outcome.ok
    ? "ok"
    : outcome.failure?.kind === "status"
      ? String(outcome.failure.status)
      : (outcome.error?.name ?? "failed");
  const wait = outcome.waitMs !== undefined ? `, retry-after ${outcome.waitMs} ms` : "";
  write(`${method} ${path} -> ${result} in ${ms} ms (attempt ${attempt}${wait})`);
}

/** Wraps a client's onRetry so each retry (why, and how long it waits) is logged first. */
export function withRetryLog(onRetry?: (event: RetryEvent) => void): (event: RetryEvent) => void {
  return (e) => {
    const why = e.status === undefined ? e.reason : `${e.reason} ${e.status}`;
    write(
      `${e.method} ${e.path}: retry after attempt ${e.attempt} (${why}), waiting ${Math.round(e.waitMs)} ms`,
    );
    onRetry?.(e);
  };
}
