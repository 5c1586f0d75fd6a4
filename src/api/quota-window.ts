import { WindowLog } from "./window-log";
import { WindowShare } from "./window-share";

/*
 * Whether one more request fits in the server's stated quota (`limit` per `windowMs`) now. Two
 * bounds, each safe on its own, so a request may go when either allows it:
 *   - the window log (window-log.ts): fewer than `limit` of ours in flight or answered within the
 *     window's length, less what others were seen to use;
 *   - the server's word: the `remaining` of the newest answer, less ours that it cannot reflect
 *     (sent after that request, or sent before it and still unanswered). It only grows as windows
 *     pass, and it lets a fresh window be used at once although the log still holds answers that
 *     came in late.
 * What the server counted beyond ours is another program's; it lowers our cap for one window.
 */
export class QuotaWindow {
  /** The stated quota; until the server states one, nothing is held back. */
  quota: { limit: number; windowMs: number } | undefined;
  #log = new WindowLog();
  #sent = 0;
  #inFlight = new Set<number>();
  #left = 0;
  #leftSeq = -1;
  #foreign = 0;
  #foreignUntil = 0;
  /** The least `remaining` answered in this window, and when that answer came. */
  #least = Infinity;
  #leastAt = -Infinity;
  /** The current window began by then (see learn). */
  #startedBy = -Infinity;
  /** Others were seen to use the quota until then: our part of it holds us back. */
  #othersUntil = 0;
  #share = new WindowShare();
  /** `remaining` as the newest-sent answered request saw it, and when its window ends. */
  #leftFrom = 0;
  #windowEndAt = 0;
  /** After a window's end, the first request of ours sent (the probe of the next one). */
  #probeFor = -1;
  #probeSeq = 0;

  /** Notes a request let through; returns its sequence number. */
  send(): number {
    const seq = this.#sent++;
    this.#inFlight.add(seq);
    this.#left--;
    return seq;
  }

  /** Notes that request `seq` was answered (or failed) at `now`. */
  answered(seq: number, now: number): void {
    this.#inFlight.delete(seq);
    if (!this.quota) return;
    this.#log.record(now);
    // Two windows back: enough to tell what the server may have counted with a late answer.
    this.#log.forget(now - 2 * this.quota.windowMs);
  }

  /**
   * Learns from `remaining` in the answer to request `seq`, sent at `sentAt`. Returns whether
   * others are seen to use the window too: then a `remaining` of 0 is theirs, worth a pause.
   */
  learn(
    seq: number,
    sentAt: number,
    now: number,
    remaining: number,
    resetMs: number | undefined,
    refused: boolean,
  ): boolean {
    const q = this.quota;
    if (!q) return true;
    // A request sent after an answer that showed less left was counted in a later window, which
    // began before this answer (answers of requests in flight together may come in any order).
    if (this.#least === Infinity || (sentAt >= this.#leastAt && remaining > this.#least)) {
      this.#startedBy = now;
      this.#share.newWindow();
      this.#least = Infinity;
    }
    if (remaining <= this.#least) {
      this.#least = remaining;
      this.#leastAt = now;
    }
    this.#share.answer(q.limit - remaining, refused);
    if (seq > this.#leftSeq) {
      let unreflected = this.#sent - 1 - seq;
      for (const s of this.#inFlight) if (s < seq) unreflected++;
      this.#left = remaining - unreflected;
      this.#leftSeq = seq;
      this.#leftFrom = remaining;
      this.#windowEndAt = resetMs === undefined ? now + q.windowMs : this.windowEnd(now, resetMs);
    }
    // Ours that the server may have counted with this one: in flight, or answered after its
    // window could have begun (unknown when the log no longer reaches back that far).
    const answered = this.#log.countAfter(sentAt - q.windowMs);
    if (answered === undefined) return true;
    const foreign = Math.max(0, q.limit - remaining - this.#inFlight.size - answered);
    if (foreign > 0) this.#othersUntil = now + 2 * q.windowMs;
    if (foreign >= this.#foreign || now >= this.#foreignUntil) {
      this.#foreign = foreign;
      // The window that count belongs to is over by then, whether fixed or sliding.
      this.#foreignUntil = now + Math.min(q.windowMs, resetMs ?? Infinity);
    }
    return foreign > 0;
  }

  /**
   * When the window of the newest answer ends, `resetMs` from `now` as the server says it. A reset
   * in whole seconds is rounded up: the window began by the answer that first showed more left
   * than the one before, so it ends by then plus its length. That bound is taken when it agrees
   * with the server's (within its last second): four programs pausing a whole second on every
   * `remaining: 0` would each lose half a window on average.
   *
   * Past that end with no newer window seen (every answer since was a refusal, or was sent before
   * the end), windows that follow each other back to back end a whole number of lengths later:
   * the next such boundary is taken (after a burst of refusals, all four programs of a shared
   * token otherwise sat idle 0.4–0.9 s of the next window). The guess is early only if the server
   * sat idle meanwhile; then one request is refused there and the next boundary is a second on,
   * about what the server's own "1 s" would have cost.
   */
  windowEnd(now: number, resetMs: number): number {
    const said = now + resetMs;
    const q = this.quota;
    if (!q || resetMs % 1000 !== 0 || resetMs === 0) return said;
    // No window seen yet (a quota stated without `remaining`): nothing to count boundaries from.
    if (this.#startedBy === -Infinity) return said;
    let by = this.#startedBy + q.windowMs;
    // The first boundary after now (exact for any clock or window length, whole ms or not).
    if (by <= now) by += (Math.floor((now - by) / q.windowMs) + 1) * q.windowMs;
    return by > said - 1000 && by <= said ? by : said;
  }

  /** Whether others were seen using the quota lately (within two windows). */
  shared(now: number): boolean {
    return now < this.#othersUntil;
  }

  /** Undefined when one more request fits now; else when it will (Infinity: after an answer). */
  fullUntil(now: number): number | undefined {
    const q = this.quota;
    if (q && this.shared(now)) return this.#sharedFullUntil(now);
    if (!q || this.#left > 0) return undefined;
    if (now >= this.#foreignUntil) this.#foreign = 0;
    const cap = Math.max(1, q.limit - this.#foreign);
    const since = now - q.windowMs;
    // How many answers must leave the window before one more request fits.
    const excess = this.#inFlight.size + (this.#log.countAfter(since) ?? 0) - cap + 1;
    if (excess <= 0) return undefined;
    const at = this.#log.expiry(since, excess, q.windowMs) ?? Infinity;
    return this.#foreign > 0 ? Math.min(at, this.#foreignUntil) : at;
  }

  /**
   * While others use the quota: no more of ours unanswered than our part of what the server said
   * is left, then nothing until the window ends; past its end, one request finds out what the new
   * window holds before the rest follow.
   */
  #sharedFullUntil(now: number): number | undefined {
    if (now >= this.#windowEndAt) {
      if (this.#probeFor !== this.#windowEndAt) {
        this.#probeFor = this.#windowEndAt;
        this.#probeSeq = this.#sent;
      }
      for (const s of this.#inFlight) if (s >= this.#probeSeq) return Infinity;
      return undefined;
    }
    const allowed = Math.floor(this.#share.value * this.#leftFrom);
    return this.#leftFrom - this.#left < allowed ? undefined : this.#windowEndAt;
  }
}
