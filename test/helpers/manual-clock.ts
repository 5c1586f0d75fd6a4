import type { LimiterClock } from "../../src/api/limiter-clock";

/** A clock that moves only when told to, firing due timers in order: decisions without sleeps. */
export class ManualClock implements LimiterClock {
  #now: number;
  #timers = new Map<number, { at: number; fn: () => void }>();
  #next = 1;

  /** `start`: the time it shows first, e.g. `Date.now()` where headers carry Unix times. */
  constructor(start = 1_000_000) {
    this.#now = start;
  }

  /** The longest delay asked of `setTimeout` so far. */
  longestDelay = 0;

  now(): number {
    return this.#now;
  }

  setTimeout(fn: () => void, ms: number): number {
    const id = this.#next++;
    this.longestDelay = Math.max(this.longestDelay, ms);
    this.#timers.set(id, { at: this.#now + ms, fn });
    return id;
  }

  clearTimeout(handle: unknown): void {
    this.#timers.delete(handle as number);
  }

  get pendingTimers(): number {
    return this.#timers.size;
  }

  /** Moves time forward by `ms`, firing each timer at its own moment. */
  async advance(ms: number): Promise<void> {
    const end = this.#now + ms;
    for (;;) {
      const due = [...this.#timers.entries()]
        .filter(([, t]) => t.at <= end)
        .sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      this.#timers.delete(due[0]);
      this.#now = Math.max(this.#now, due[1].at);
      due[1].fn();
      await flush();
    }
    this.#now = end;
    await flush();
  }
}

/** Lets resolved promises run their continuations. */
export async function flush(): Promise<void> {
  for (let i = 0; i < 5; i++) await Promise.resolve();
}
