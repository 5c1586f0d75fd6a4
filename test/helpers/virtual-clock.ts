import type { Clock } from "../../src/provider/clock";

/**
 * Time that passes only when the code under test waits: a sleep moves the clock to its wake
 * time and returns at once. Sleeps begun together wake together (time does not add up across
 * concurrent waiters); a sleep begun after another woke starts from that moment. Never behind
 * real time, so anything still timed by Date.now sees time go forward as usual.
 */
export class VirtualClock implements Clock {
  #ahead = 0;

  readonly now = (): number => Date.now() + this.#ahead;

  readonly sleep = async (ms: number): Promise<void> => {
    const wake = this.now() + Math.max(0, ms);
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.#ahead = Math.max(this.#ahead, wake - Date.now());
  };

  /** Moves time forward by `ms` at once (what happened "later", behind the provider's back). */
  advance(ms: number): void {
    this.#ahead += ms;
  }
}
