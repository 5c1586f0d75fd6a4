/*
 * Progress of long waits, for the person running `pulumi up`. Pulumi's dynamic-provider host
 * gives providers no log call and no URN; what it does pass on is its stdout: the engine reads
 * the host's output line by line and reports each line as an info message (on the stack's row
 * and under Diagnostics). So a progress line is a line on stdout.
 */

import type { RetryEvent } from "../api/wire";
import { progressIntervalMs } from "./environment";

/** Prints one progress line (`hosting: …`). */
export function reportProgress(text: string): void {
  process.stdout.write(`hosting: ${text}\n`);
}

/**
 * Reports a wait that outlasts one interval: a line each interval while it lasts, and how it
 * ended. Quick waits stay silent. `what` names the object and the wait, e.g. `app "web" (id):
 * setup`. `now`: the clock the wait itself runs on.
 */
export function waitProgress(what: string, timeoutS: number, now: () => number = Date.now) {
  const started = now();
  const every = progressIntervalMs();
  let next = started + every;
  let reported = false;
  const elapsed = () => Math.round((now() - started) / 1000);
  return {
    tick(): void {
      if (now() < next) return;
      reportProgress(`${what}: still waiting after ${elapsed()} s (up to ${timeoutS} s)`);
      reported = true;
      next += every;
    },
    end(done: boolean): void {
      if (!reported) return;
      reportProgress(`${what}: ${done ? "done" : "gave up"} after ${elapsed()} s`);
    },
  };
}

/** A client's onRetry: a retry that waits at least one progress interval is reported. */
export function reportRetryWait(e: RetryEvent): void {
  if (e.waitMs < progressIntervalMs()) return;
  const why =
    e.reason === "throttled" ? "throttled by the service" : `retrying (${e.status ?? "no reply"})`;
  reportProgress(`${e.method} ${e.path}: ${why}, waiting ${Math.round(e.waitMs / 1000)} s`);
}
