import { HostingInputError } from "./errors/input-error";
import type { RateLimitInfo } from "./rate-limit-headers";
import { QuotaWindow } from "./quota-window";
import { tokenDigest } from "./token-digest";

/*
 * One limiter per (API URL, token) in the process, shared by every client, resource and data
 * source: the server limits the token, not one client. It bounds requests in flight and, once the
 * server has shown a limit, paces them with a token bucket whose rate is learned:
 *   - a stated quota (RateLimit-Policy / X-RateLimit-Limit with a window) caps the rate: the
 *     full quota when the server also reports `remaining` (it shows when others use the token),
 *     else `quotaShare` of it; and a request goes only when it fits in the window
 *     (quota-window.ts: by our own requests of the window's length, or by the server's
 *     `remaining`), so our own traffic never overruns a window wherever its edges fall;
 *   - a 429 cuts the rate (×0.7) and pauses everyone for Retry-After; successes then probe back
 *     up along a cubic curve (the AWS SDK's adaptive retry mode, from TCP CUBIC), never past
 *     twice what was actually sent, nor past the stated quota;
 *   - what the server counted beyond our own requests of the window is another program's: it
 *     shrinks our share of the window until that window is over, and `remaining: 0` then pauses
 *     everyone until the reset, before any 429. A `remaining: 0` that our own requests explain
 *     needs no pause: the window rule already holds the next request until the window is past.
 * Until the first response, one request goes at a time. 429s that answer requests sent before
 * the last cut are the same congestion event: they extend the pause but do not cut again
 * (otherwise 30 parallel refusals would cut the rate 0.7^30).
 */

/** The time source and timers a limiter uses; tests pass a manual one. */
export interface LimiterClock {
  /** The time now, in ms since the epoch. */
  now(): number;
  /** Calls `fn` after `ms`; returns a handle for `clearTimeout`. */
  setTimeout(fn: () => void, ms: number): unknown;
  /** Cancels a timer made by `setTimeout`. */
  clearTimeout(handle: unknown): void;
}

const realClock: LimiterClock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout),
};

/** Options of {@link RequestLimiter}. */
export interface RequestLimiterOptions {
  /** Requests in flight at once (default 32). */
  maxConcurrency?: number;
  /** Share of a server-stated quota to pace at when the server does not report what remains of
   * it, leaving room for other users of the token (default 0.95). */
  quotaShare?: number;
  /** Tokens the bucket holds, as ms of the current rate, at least 2 so that a late timer can
   * catch up (default 0: no bursts, which a fixed-window server would count in one window). */
  burstMs?: number;
  /** Time source and timers; tests pass a manual clock. */
  clock?: LimiterClock;
}

/** A granted slot: release it when the response (or failure) is in. */
export interface Permit {
  /** When the request was let through, by the limiter's clock (ms). */
  readonly sentAt: number;
  /** Frees the slot; call it once, when the response (or failure) is in. */
  release(): void;
}

// CUBIC constants, as in the AWS SDKs.
const BETA = 0.7;
const SCALE = 0.4;
const SMOOTH = 0.8;
const MIN_RATE = 0.5;

/**
 * The shared limiter of one (API URL, token): bounds requests in flight and paces them with a
 * token bucket learned from the server's rate-limit headers and 429s. Every client of that URL
 * and token in the process shares one.
 */
export class RequestLimiter {
  /** The most requests in flight at once. */
  readonly maxConcurrency: number;
  readonly #quotaShare: number;
  readonly #burstS: number;
  readonly #clock: LimiterClock;
  #inFlight = 0;
  #waiters: Array<(p: Permit) => void> = [];
  #timer: unknown;
  #timerAt = Infinity;
  #pausedUntil = 0;
  // Token bucket: off until the server shows a limit.
  #enabled = false;
  #rate = Infinity;
  #tokens = 0;
  #capacity = 1;
  #lastRefill = -1;
  #ceiling = Infinity;
  // CUBIC state and the measured sending rate.
  #lastMaxRate = 0;
  #lastThrottle = -Infinity;
  #window = 0;
  #measured = 0;
  #count = 0;
  #bucket: number;
  #throttles = 0;
  #heard = false;
  // The stated quota's window: ours in it, what the server says is left, what others use.
  #quota = new QuotaWindow();
  #seqOf = new WeakMap<Permit, number>();

  constructor(options: number | RequestLimiterOptions = {}) {
    const o = typeof options === "number" ? { maxConcurrency: options } : options;
    this.maxConcurrency = o.maxConcurrency ?? 32;
    this.#quotaShare = o.quotaShare ?? 0.95;
    this.#burstS = (o.burstMs ?? 0) / 1000;
    // A concurrency of 0 (or NaN) would hold every request forever.
    if (!Number.isInteger(this.maxConcurrency) || this.maxConcurrency < 1) {
      throw new HostingInputError("maxConcurrency", "maxConcurrency must be a whole number ≥ 1");
    }
    if (!(this.#quotaShare > 0 && this.#quotaShare <= 1)) {
      throw new HostingInputError("quotaShare", "quotaShare must be a number above 0, at most 1");
    }
    if (!(this.#burstS >= 0 && Number.isFinite(this.#burstS))) {
      throw new HostingInputError("burstMs", "burstMs must be a number of ms ≥ 0");
    }
    this.#clock = o.clock ?? realClock;
    this.#bucket = this.#halfSecond(this.#clock.now());
  }

  /** Requests per second the bucket lets through; undefined while it is off. */
  get rate(): number | undefined {
    return this.#enabled ? this.#rate : undefined;
  }

  /** When the current pause (Retry-After, an exhausted window) ends; 0 when none. */
  get pausedUntil(): number {
    return this.#pausedUntil;
  }

  /**
   * How long, in ms, a request at the front of the queue waits from now: the pause, then the
   * bucket's next token. An estimate for what a retry will sit out (a full slot adds to it).
   */
  nextSlotInMs(): number {
    const now = this.#clock.now();
    this.#refill(now);
    const paused = Math.max(0, this.#pausedUntil - now);
    const tokenWait =
      this.#enabled && this.#tokens < 1 ? ((1 - this.#tokens) / this.#rate) * 1000 : 0;
    const full = this.#quota.fullUntil(now);
    const windowWait = full !== undefined && Number.isFinite(full) ? full - now : 0;
    return Math.round(Math.max(paused, tokenWait, windowWait));
  }

  /** Rate cuts made so far (one per congestion event). */
  get throttles(): number {
    return this.#throttles;
  }

  /** Requests in flight now. */
  get inFlight(): number {
    return this.#inFlight;
  }

  /**
   * Resolves once a slot is free, no pause is in force and the bucket has a token. A retry goes
   * to the front of the queue: it has waited longest.
   */
  acquire(retry = false): Promise<Permit> {
    return new Promise((resolve) => {
      if (retry) this.#waiters.unshift(resolve);
      else this.#waiters.push(resolve);
      this.#pump();
    });
  }

  /** Learns from one response: its status and what its headers say about the limit. */
  observe(permit: Permit, status: number, info: RateLimitInfo = {}): void {
    const now = this.#clock.now();
    this.#heard = true;
    this.#measure(now);
    if (info.limit !== undefined && info.windowMs) {
      this.#quota.quota = { limit: info.limit, windowMs: info.windowMs };
      const share = info.remaining === undefined ? this.#quotaShare : 1;
      this.#ceiling = Math.max(MIN_RATE, (info.limit / info.windowMs) * 1000 * share);
      if (!this.#enabled) {
        this.#enabled = true;
        this.#lastMaxRate = this.#ceiling;
        this.#lastThrottle = now;
        this.#window = 0;
        this.#setRate(this.#ceiling, now);
      }
    }
    if (info.remaining !== undefined) {
      const seq = this.#seqOf.get(permit) ?? -1;
      const { remaining, resetMs } = info;
      const others = this.#quota.learn(seq, permit.sentAt, now, remaining, resetMs);
      // A window our own requests used up needs no pause: the window rule holds ours back.
      if (remaining === 0 && resetMs && others) this.#pause(now + resetMs);
    }
    if (status === 429) {
      this.#pause(now + (info.retryAfterMs ?? info.resetMs ?? 0));
      if (permit.sentAt >= this.#lastThrottle) this.#cut(now);
    } else if (this.#enabled) {
      const t = (now - this.#lastThrottle) / 1000 - this.#window;
      const cubic = SCALE * t ** 3 + this.#lastMaxRate;
      // Probe up, but never past twice what was actually sent: demand, not the curve, leads.
      this.#setRate(Math.max(this.#rate, Math.min(cubic, 2 * this.#measured)), now);
    }
    this.#pump();
  }

  #cut(now: number): void {
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

  #setRate(rate: number, now: number): void {
    this.#refill(now);
    this.#rate = Math.max(MIN_RATE, Math.min(rate, this.#ceiling));
    this.#capacity = Math.max(2, this.#rate * this.#burstS);
    this.#tokens = Math.min(this.#tokens, this.#capacity);
  }

  #pause(until: number): void {
    this.#pausedUntil = Math.max(this.#pausedUntil, until);
  }

  #halfSecond(now: number): number {
    return Math.floor(now / 500) / 2;
  }

  /** Responses per second, smoothed over half-second buckets. */
  #measure(now: number): void {
    const bucket = this.#halfSecond(now);
    this.#count++;
    if (bucket > this.#bucket) {
      const current = this.#count / (bucket - this.#bucket);
      this.#measured = current * SMOOTH + this.#measured * (1 - SMOOTH);
      this.#count = 0;
      this.#bucket = bucket;
    }
  }

  #refill(now: number): void {
    if (this.#lastRefill >= 0 && Number.isFinite(this.#rate)) {
      const added = ((now - this.#lastRefill) / 1000) * this.#rate;
      this.#tokens = Math.min(this.#capacity, this.#tokens + added);
    }
    this.#lastRefill = now;
  }

  #pump(): void {
    if (this.#waiters.length === 0) return;
    const now = this.#clock.now();
    if (this.#pausedUntil > now) return this.#wakeAt(this.#pausedUntil, now);
    this.#refill(now);
    // Until a first response tells what the server allows, one request at a time: a burst of 32
    // into a quota of 10 would only buy 429s and a pause.
    const limit = this.#heard ? this.maxConcurrency : 1;
    while (this.#waiters.length > 0 && this.#inFlight < limit) {
      const full = this.#quota.fullUntil(now);
      if (full !== undefined) return Number.isFinite(full) ? this.#wakeAt(full, now) : undefined;
      if (this.#enabled) {
        if (this.#tokens < 1)
          return this.#wakeAt(now + ((1 - this.#tokens) / this.#rate) * 1000, now);
        this.#tokens -= 1;
      }
      this.#inFlight++;
      this.#waiters.shift()!(this.#permit(now));
    }
  }

  #permit(sentAt: number): Permit {
    let released = false;
    const seq = this.#quota.send();
    const permit = {
      sentAt,
      release: () => {
        if (released) return;
        released = true;
        this.#inFlight--;
        this.#quota.answered(seq, this.#clock.now());
        this.#pump();
      },
    };
    this.#seqOf.set(permit, seq);
    return permit;
  }

  /** One timer at most, for the earliest moment a waiter may go; none when nobody waits. */
  #wakeAt(at: number, now: number): void {
    if (this.#timer !== undefined && this.#timerAt <= at) return;
    if (this.#timer !== undefined) this.#clock.clearTimeout(this.#timer);
    this.#timerAt = at;
    this.#timer = this.#clock.setTimeout(
      () => {
        this.#timer = undefined;
        this.#timerAt = Infinity;
        this.#pump();
      },
      Math.max(1, Math.ceil(at - now)),
    );
  }
}

const shared = new Map<string, RequestLimiter>();

/**
 * The limiter for an API URL (origin plus base path) and token, created on first use. The map
 * key holds a hash of the token, never the token.
 */
export function limiterFor(apiUrl: URL, token: string): RequestLimiter {
  const key = `${apiUrl.origin}${apiUrl.pathname.replace(/\/+$/, "")} ${tokenDigest(token)}`;
  let limiter = shared.get(key);
  if (!limiter) {
    limiter = new RequestLimiter();
    shared.set(key, limiter);
  }
  return limiter;
}
