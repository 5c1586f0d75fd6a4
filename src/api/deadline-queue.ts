import { timerMs, type Clock } from "../base";

/** One request waiting for its turn. */
interface Waiter<T> {
  resolve: (value: T) => void;
  reject: (error: Error) => void;
  /** When it must have gone, by the clock; Infinity: no deadline. */
  deadline: number;
  timer?: unknown;
  /** Granted or failed: no longer in the queue. */
  settled?: boolean;
}

/**
 * The limiter's waiting line: first come first served (a retry may go to the front), each waiter
 * with a deadline, and one wake-up timer for the moment the front may go. It decides nothing:
 * `check` (the limiter's) runs whenever a deadline or the wake-up comes.
 */
export class DeadlineQueue<T> {
  #waiters: Waiter<T>[] = [];
  #timer: unknown;
  #timerAt = Infinity;

  constructor(
    private readonly clock: Clock,
    private readonly check: () => void,
  ) {}

  get length(): number {
    return this.#waiters.length;
  }

  /** Queues a waiter; `front` puts it first. Call {@link armDeadline} after a first check. */
  add(waiter: Waiter<T>, front: boolean): Waiter<T> {
    if (front) this.#waiters.unshift(waiter);
    else this.#waiters.push(waiter);
    return waiter;
  }

  /** Checks again when the waiter's deadline comes, unless it has gone by then. */
  armDeadline(w: Waiter<T>): void {
    if (w.settled || !Number.isFinite(w.deadline)) return;
    const now = this.clock.now();
    w.timer = this.clock.setTimeout(
      () => {
        w.timer = undefined;
        if (w.settled) return;
        // Not there yet (a timer capped at Node's maximum): set the next stretch.
        if (this.clock.now() < w.deadline) return this.armDeadline(w);
        this.check();
      },
      timerMs(w.deadline - now),
    );
  }

  /** Lets the front waiter go with `value`. */
  grant(value: T): void {
    const w = this.#waiters.shift()!;
    this.#settle(w);
    w.resolve(value);
  }

  /**
   * Fails every waiter whose deadline comes before `until` (or, when `open`, is already past):
   * waiting cannot help it.
   */
  failBefore(until: number, open: boolean, now: number, error: (leftMs: number) => Error): void {
    this.#waiters = this.#waiters.filter((w) => {
      if (w.deadline >= until && !(open && w.deadline <= now)) return true;
      this.#settle(w);
      w.reject(error(Math.max(0, w.deadline - now)));
      return false;
    });
    if (this.#waiters.length === 0 && this.#timer !== undefined) {
      this.clock.clearTimeout(this.#timer);
      this.#timer = undefined;
      this.#timerAt = Infinity;
    }
  }

  /** One timer at most, for the earliest moment a waiter may go; none when nobody waits. */
  wakeAt(at: number, now: number): void {
    if (this.#timer !== undefined && this.#timerAt <= at) return;
    if (this.#timer !== undefined) this.clock.clearTimeout(this.#timer);
    this.#timerAt = at;
    this.#timer = this.clock.setTimeout(
      () => {
        this.#timer = undefined;
        this.#timerAt = Infinity;
        this.check();
      },
      timerMs(at - now),
    );
  }

  #settle(w: Waiter<T>): void {
    w.settled = true;
    if (w.timer !== undefined) this.clock.clearTimeout(w.timer);
  }
}
