import { clock } from "./clock";
import { waitProgress } from "../connection";

/**
 * Calls `check` until `done` says yes or `timeoutS` passes, starting from a first result already
 * in hand. Returns the last result either way: the caller decides what a timeout means. A wait
 * longer than the progress interval is reported as `what` (see progress.ts).
 */
export async function pollUntil<T>(
  first: T,
  check: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutS: number,
  intervalMs: number,
  what: string,
): Promise<T> {
  const deadline = clock.now() + timeoutS * 1000;
  const progress = waitProgress(what, timeoutS, clock.now);
  let value = first;
  while (!done(value) && clock.now() < deadline) {
    await clock.sleep(Math.min(intervalMs, Math.max(0, deadline - clock.now())));
    value = await check();
    if (!done(value)) progress.tick();
  }
  progress.end(done(value));
  return value;
}
