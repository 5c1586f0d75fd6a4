/*
 * When our own requests were answered, over the last two windows. A request the server counted
 * in some window was answered after that window began, so if every request goes only while fewer
 * than `limit` of ours are in flight or were answered within the window's length, no window of
 * the server holds more than `limit` of ours: fixed or sliding, however its edges fall on our
 * clock. That lets the limiter pace at the full quota without a margin for misaligned windows.
 * The second window of history tells, for an answer that took a while, which of ours the server
 * may have counted with it.
 */
export class WindowLog {
  /** Answer times, oldest first. */
  #answered: number[] = [];
  /** Everything answered after this is still here. */
  #keptAfter = -Infinity;

  /** Notes an answer (or a failure) at `at`. */
  record(at: number): void {
    this.#answered.push(at);
  }

  /** Answers after `since`; undefined when some of them are no longer kept. */
  countAfter(since: number): number | undefined {
    if (since < this.#keptAfter) return undefined;
    let i = this.#answered.length;
    while (i > 0 && this.#answered[i - 1] > since) i--;
    return this.#answered.length - i;
  }

  /** Forgets answers at or before `before`. */
  forget(before: number): void {
    let old = 0;
    while (old < this.#answered.length && this.#answered[old] <= before) old++;
    if (old === 0) return;
    this.#keptAfter = Math.max(this.#keptAfter, this.#answered[old - 1]);
    this.#answered.splice(0, old);
  }

  /** When the `n`-th oldest answer after `since` (1-based) is `windowMs` old. */
  expiry(since: number, n: number, windowMs: number): number | undefined {
    const first = this.#answered.length - (this.countAfter(since) ?? this.#answered.length);
    const at = this.#answered[first + n - 1];
    return at === undefined ? undefined : at + windowMs;
  }
}
