import type { Clock } from "../../src/base";

/** A virtual clock's timers further ahead than this keep real time (see `setTimeout`). */
const HORIZON_MS = 60_000;

/**
 * The tests' one clock, for every wait of the package (the provider's, the limiter's, the
 * transport's), in one of two ways:
 * - {@link TestClock.manual}: time moves only when told ({@link advance}), firing each due timer
 *   at its own moment: decisions without sleeps.
 * - {@link TestClock.virtual}: time passes only when the code under test waits: a timer fires
 *   once pending work has run, the clock moved to its time. Waits begun together wake together
 *   (time does not add up across concurrent waiters); one begun after another woke starts from
 *   that moment. Never behind real time, so anything still timed by Date.now sees time go on.
 */
export class TestClock implements Clock {
  /** Manual: the time shown before any advance. Virtual: undefined, real time is the floor. */
  readonly #start: number | undefined;
  #ahead = 0;
  #timers = new Map<number, { at: number; fn: () => void }>();
  #next = 1;

  /** The longest delay asked of `setTimeout` so far. */
  longestDelay = 0;

  private constructor(start: number | undefined) {
    this.#start = start;
  }

  /** `start`: the time it shows first, e.g. `Date.now()` where headers carry Unix times. */
  static manual(start = 1_000_000): TestClock {
    return new TestClock(start);
  }

  static virtual(): TestClock {
    return new TestClock(undefined);
  }

  readonly now = (): number => (this.#start ?? Date.now()) + this.#ahead;

  /**
   * Virtual: a timer as a wait that returns at once. One further ahead than a minute is a
   * watchdog (the limiter's deadline for a request it holds, minutes away), which must not fire
   * just because nothing else is due: it keeps real time, so never in a test.
   */
  readonly setTimeout = (fn: () => void, ms: number): unknown => {
    this.longestDelay = Math.max(this.longestDelay, ms);
    if (this.#start !== undefined) {
      const id = this.#next++;
      this.#timers.set(id, { at: this.now() + ms, fn });
      return id;
    }
    if (ms > HORIZON_MS) return setTimeout(fn, ms).unref();
    const timer = { cancelled: false };
    void this.#wait(ms).then(() => {
      if (!timer.cancelled) fn();
    });
    return timer;
  };

  readonly clearTimeout = (handle: unknown): void => {
    if (typeof handle === "number") this.#timers.delete(handle);
    else if (handle instanceof Object && "cancelled" in handle) handle.cancelled = true;
    else clearTimeout(handle as NodeJS.Timeout);
  };

  /** Resolves after `ms` on this clock: at once when virtual, at an {@link advance} if manual. */
  readonly sleep = (ms: number): Promise<void> =>
    new Promise<void>((wake) => this.setTimeout(wake, ms));

  /** Manual: timers not yet fired. */
  get pendingTimers(): number {
    return this.#timers.size;
  }

  /**
   * Moves time forward by `ms`. Manual: firing each due timer at its own moment. Virtual: at
   * once (what happened "later", behind the back of the code under test).
   */
  async advance(ms: number): Promise<void> {
    const end = this.now() + ms;
    for (;;) {
      const due = [...this.#timers.entries()]
        .filter(([, t]) => t.at <= end)
        .sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      this.#timers.delete(due[0]);
      this.#moveTo(due[1].at);
      due[1].fn();
      await flush();
    }
    this.#moveTo(end);
    await flush();
  }

  /** Virtual: lets pending work run, then moves the clock to the wait's end (never back). */
  async #wait(ms: number): Promise<void> {
    const wake = this.now() + Math.max(0, ms);
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.#moveTo(wake);
  }

  #moveTo(at: number): void {
    this.#ahead = Math.max(this.#ahead, at - (this.#start ?? Date.now()));
  }
}

/** Lets resolved promises run their continuations. */
export async function flush(): Promise<void> {
  for (let i = 0; i < 5; i++) await Promise.resolve();
}
