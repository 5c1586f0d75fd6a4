import type { QuotaWindow } from "./quota-window";

// CUBIC constants, as in the AWS SDKs.
const BETA = 0.7;
const SCALE = 0.4;
const SMOOTH = 0.8;
const MIN_RATE = 0.5;

/**
 * The pace of requests: a token bucket whose rate is learned. Off until the server shows a limit
 * (a stated quota or a 429); a 429 cuts the rate to 0.7× what was sent, successes probe back up
 * along a cubic curve (TCP CUBIC, as the AWS SDKs' adaptive retry mode), never past twice what
 * was actually sent nor past the stated quota.
 */
export class RateController {
  #enabled = false;
  #rate = Infinity;
  #tokens = 0;
  #capacity = 1;
  #lastRefill = -1;
  #ceiling = Infinity;
  /** Seconds of the current rate the bucket may hold: a whole window once the server reports
   * what is left of it (the window rules then keep bursts inside the quota). */
  #windowBurstS = 0;
  #lastMaxRate = 0;
  #lastThrottle = -Infinity;
  #window = 0;
  #measured = 0;
  #count = 0;
  #bucket: number;
  #throttles = 0;

  constructor(
    /** Share of a stated quota to pace at when the server does not say what remains of it. */
    private readonly quotaShare: number,
    /** Seconds of the current rate the bucket holds, for bursts. */
    private readonly burstS: number,
    /** The stated quota's window: while others use it, no whole-window bursts. */
    private readonly quota: QuotaWindow,
    now: number,
  ) {
    this.#bucket = halfSecond(now);
  }

  /** Requests per second the bucket lets through; undefined while it is off. */
  get rate(): number | undefined {
    return this.#enabled ? this.#rate : undefined;
  }

  /** Rate cuts made so far (one per congestion event). */
  get throttles(): number {
    return this.#throttles;
  }

  /** When the bucket has its next token; undefined when it has one now (or is off). */
  nextTokenAt(now: number): number | undefined {
    this.#refill(now);
    if (!this.#enabled || this.#tokens >= 1) return undefined;
    return now + ((1 - this.#tokens) / this.#rate) * 1000;
  }

  /** A request goes: it spends a token. */
  take(): void {
    if (this.#enabled) this.#tokens -= 1;
  }

  /** Counts one response, for the measured sending rate. */
  measure(now: number): void {
    const bucket = halfSecond(now);
    this.#count++;
    if (bucket > this.#bucket) {
      const current = this.#count / (bucket - this.#bucket);
      this.#measured = current * SMOOTH + this.#measured * (1 - SMOOTH);
      this.#count = 0;
      this.#bucket = bucket;
    }
  }

  /** A stated quota caps the rate; the first one turns pacing on at it. */
  stated(limit: number, windowMs: number, remainingKnown: boolean, now: number): void {
    const share = remainingKnown ? 1 : this.quotaShare;
    this.#ceiling = Math.max(MIN_RATE, (limit / windowMs) * 1000 * share);
    this.#windowBurstS = remainingKnown ? windowMs / 1000 : 0;
    if (!this.#enabled) {
      this.#enabled = true;
      this.#lastMaxRate = this.#ceiling;
      this.#lastThrottle = now;
      this.#window = 0;
      this.#setRate(this.#ceiling, now);
    }
  }

  /**
   * A 429 to a request sent at `sentAt`: the rate is cut, once per congestion event (refusals of
   * requests sent before the last cut are the same event; 30 of them must not cut 0.7^30).
   */
  throttled(sentAt: number, now: number): void {
    if (sentAt < this.#lastThrottle) return;
    // What was sent lately: the smoothed rate, or at least this half-second's count so far (a
    // client that just started has no smoothed rate yet, and 0 would cut it to the floor).
    const sent = Math.max(this.#measured, this.#count * 2);
    const base = this.#enabled ? Math.min(sent, this.#rate) : sent;
    this.#lastMaxRate = Math.max(MIN_RATE, base);
    this.#window = Math.cbrt((this.#lastMaxRate * (1 - BETA)) / SCALE);
    this.#lastThrottle = now;
    this.#enabled = true;
    this.#throttles++;
    this.#setRate(this.#lastMaxRate * BETA, now);
  }

  /** Any other answer: probe up, but never past twice what was sent (demand, not the curve). */
  answered(now: number): void {
    if (!this.#enabled) return;
    const t = (now - this.#lastThrottle) / 1000 - this.#window;
    const cubic = SCALE * t ** 3 + this.#lastMaxRate;
    this.#setRate(Math.max(this.#rate, Math.min(cubic, 2 * this.#measured)), now);
  }

  #setRate(rate: number, now: number): void {
    this.#refill(now);
    this.#rate = Math.max(MIN_RATE, Math.min(rate, this.#ceiling));
    this.#capacity = Math.max(2, this.#rate * this.burstS);
    this.#tokens = Math.min(this.#tokens, this.#capacityAt(now));
  }

  /**
   * Tokens the bucket holds now. A whole window's worth while no other program is seen using the
   * quota; with others, answers come too late to stop a burst from overrunning what they left.
   */
  #capacityAt(now: number): number {
    if (this.#windowBurstS === 0 || this.quota.shared(now)) return this.#capacity;
    return Math.max(this.#capacity, this.#rate * this.#windowBurstS);
  }

  #refill(now: number): void {
    if (this.#lastRefill >= 0 && Number.isFinite(this.#rate)) {
      const added = ((now - this.#lastRefill) / 1000) * this.#rate;
      this.#tokens = Math.min(this.#capacityAt(now), this.#tokens + added);
    }
    this.#lastRefill = now;
  }
}

const halfSecond = (now: number) => Math.floor(now / 500) / 2;
