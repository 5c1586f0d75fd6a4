/*
 * The package's one clock: the provider's waits and polls, the limiter's pauses and deadlines
 * and the transport's backoff all run on a Clock, so a test gives one test double to all of them.
 */

/** Node's longest timer (about 24.8 days): a longer delay fires at once, with a warning. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** The time source and timers every wait uses; tests pass their own. */
export interface Clock {
  /** The time now, in ms since the epoch. */
  now(): number;
  /** Calls `fn` after `ms`; returns a handle for `clearTimeout`. */
  setTimeout(fn: () => void, ms: number): unknown;
  /** Cancels a timer made by `setTimeout`. */
  clearTimeout(handle: unknown): void;
}

/** Real time: every clock's default. */
export const realClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout),
};

/** Resolves after `ms` on `clock` (at most Node's longest timer). */
export function sleep(clock: Clock, ms: number): Promise<void> {
  return new Promise<void>((wake) => clock.setTimeout(wake, Math.min(ms, MAX_TIMER_MS)));
}

/** A timer's delay: at least 1 ms, at most Node's maximum (a longer one would fire at once). */
export const timerMs = (ms: number) => Math.min(MAX_TIMER_MS, Math.max(1, Math.ceil(ms)));
