import type { LimiterClock } from "../../src/api/limiter-clock";
import type { Clock } from "../../src/provider/clock";

/** Timers further ahead than this keep real time (see {@link VirtualClock.setTimeout}). */
const HORIZON_MS = 60_000;

/**
 * Time that passes only when the code under test waits: a sleep moves the clock to its wake
 * time and returns at once. Sleeps begun together wake together (time does not add up across
 * concurrent waiters); a sleep begun after another woke starts from that moment. Never behind
 * real time, so anything still timed by Date.now sees time go forward as usual.
 * As a {@link LimiterClock} it times the api's waits the same way: the limiter's pauses and
 * pacing, the transport's backoff.
 */
export class VirtualClock implements Clock, LimiterClock {
  #ahead = 0;

  readonly now = (): number => Date.now() + this.#ahead;

  readonly sleep = async (ms: number): Promise<void> => {
    const wake = this.now() + Math.max(0, ms);
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.#ahead = Math.max(this.#ahead, wake - Date.now());
  };

  /**
   * A timer as a sleep: it fires at once, the clock moved to its time. One further ahead than a
   * minute is a watchdog (the limiter's deadline for a request it holds, minutes away), which
   * must not fire just because nothing else is due: it keeps real time, so never in a test.
   */
  readonly setTimeout = (fn: () => void, ms: number): unknown => {
    if (ms > HORIZON_MS) return setTimeout(fn, ms).unref();
    const timer = { cancelled: false };
    void this.sleep(ms).then(() => {
      if (!timer.cancelled) fn();
    });
    return timer;
  };

  readonly clearTimeout = (handle: unknown): void => {
    if (handle instanceof Object && "cancelled" in handle) handle.cancelled = true;
    else clearTimeout(handle as NodeJS.Timeout);
  };

  /** Moves time forward by `ms` at once (what happened "later", behind the provider's back). */
  advance(ms: number): void {
    this.#ahead += ms;
  }
}
