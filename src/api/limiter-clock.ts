import { MAX_TIMER_MS } from "./timeouts";

/** The time source and timers a limiter uses; tests pass a manual one. */
export interface LimiterClock {
  /** The time now, in ms since the epoch. */
  now(): number;
  /** Calls `fn` after `ms`; returns a handle for `clearTimeout`. */
  setTimeout(fn: () => void, ms: number): unknown;
  /** Cancels a timer made by `setTimeout`. */
  clearTimeout(handle: unknown): void;
}

/** Real time: every limiter's clock unless one is given, and the transport's without a limiter. */
export const realLimiterClock: LimiterClock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout),
};

/** A timer's delay: at least 1 ms, at most Node's maximum (a longer one would fire at once). */
export const timerMs = (ms: number) => Math.min(MAX_TIMER_MS, Math.max(1, Math.ceil(ms)));
