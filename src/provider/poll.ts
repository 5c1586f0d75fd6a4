import { setTimeout as sleep } from "node:timers/promises";

/**
 * Calls `check` until `done` says yes or `timeoutS` passes, starting from a first result already
 * in hand. Returns the last result either way: the caller decides what a timeout means.
 */
export async function pollUntil<T>(
  first: T,
  check: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutS: number,
  intervalMs: number,
): Promise<T> {
  const deadline = Date.now() + timeoutS * 1000;
  let value = first;
  while (!done(value) && Date.now() < deadline) {
    await sleep(Math.min(intervalMs, Math.max(0, deadline - Date.now())));
    value = await check();
  }
  return value;
}
