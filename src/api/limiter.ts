import { HostingInputError, LimiterHoldError, type HoldReason } from "./errors";
import { MAX_TIMER_MS } from "./timeouts";
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
 *     needs no pause: the window rule already holds the next request until the window is past;
 *   - while others use the quota, no more of ours unanswered than our part of what is left
 *     (quota-window.ts, window-share.ts), and no bursts: alone, the bucket holds a whole window.
 * Until the first response, one request goes at a time. 429s that answer requests sent before
 * the last cut are the same congestion event: they extend the pause but do not cut again
 * (otherwise 30 parallel refusals would cut the rate 0.7^30).
 * Every wait has a deadline: a request given one (`acquire(retry, deadline)`) that the limiter
 * would hold past it fails at once, or when its deadline comes, with a {@link LimiterHoldError}.
 * A pause the server asks for is kept for at most {@link MAX_PAUSE_MS}, so one hostile reply
 * cannot stop the process's calls for good, and no timer is ever set past Node's maximum.
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

/** Real time: every limiter's clock unless one is given, and the transport's without a limiter. */
export const realLimiterClock: LimiterClock = {
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

/** The longest shared pause kept from one reply; a longer one fails the calls it holds anyway. */
export const MAX_PAUSE_MS = 3_600_000;

interface Hold {
  until: number;
  reason: HoldReason;
  open: boolean;
}

interface Waiter {
  resolve: (p: Permit) => void;
  reject: (e: LimiterHoldError) => void;
  /** When it must have gone, by the limiter's clock; Infinity: no deadline. */
  deadline: number;
  timer?: unknown;
  /** Granted or failed: no longer in the queue. */
  settled?: boolean;
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
  #waiters: Waiter[] = [];
  #timer: unknown;
  #timerAt = Infinity;
  #pausedUntil = 0;
  #pauseReason: HoldReason = "pause";
  // Token bucket: off until the server shows a limit.
  #enabled = false;
  #rate = Infinity;
  #tokens = 0;
  #capacity = 1;
  #lastRefill = -1;
  #ceiling = Infinity;
  /** Seconds of the current rate the bucket may hold: a whole window once the server reports
   * what is left of it (the window rules then keep bursts inside the quota). */
  #windowBurstS = 0;
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
    this.#clock = o.clock ?? realLimiterClock;
    this.#bucket = this.#halfSecond(this.#clock.now());
  }

  /** The limiter's time source: deadlines given to {@link acquire} are on this clock. */
  get clock(): LimiterClock {
    return this.#clock;
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
    const hold = this.#holdUntil(now);
    return hold ? Math.round(Math.max(0, hold.until - now)) : 0;
  }

  /**
   * Whether, until when and why the front of the queue is held; undefined when it may go now.
   * `open`: past `until` it waits for an answer too (a window that our own requests used up).
   */
  #holdUntil(now: number): Hold | undefined {
    this.#refill(now);
    let hold: Hold | undefined;
    const later = (until: number, reason: HoldReason) => {
      if (until <= now) return;
      if (!Number.isFinite(until)) hold = { until: hold?.until ?? now, reason, open: true };
      else if (!hold || until > hold.until) hold = { until, reason, open: hold?.open ?? false };
    };
    later(this.#pausedUntil, this.#pauseReason);
    if (this.#enabled && this.#tokens < 1) {
      later(now + ((1 - this.#tokens) / this.#rate) * 1000, "pacing");
    }
    const full = this.#quota.fullUntil(now);
    if (full !== undefined) later(full, "quota");
    return hold;
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
   * to the front of the queue: it has waited longest. With a `deadline` (ms, on {@link clock}),
   * it rejects with a {@link LimiterHoldError} as soon as the limiter is known to hold it past
   * then, or when the deadline comes while the server's limits still hold it. A wait for a free
   * slot alone is not held against it: in-flight requests end by their own limits.
   */
  acquire(retry = false, deadline = Infinity): Promise<Permit> {
    return new Promise((resolve, reject) => {
      const w: Waiter = { resolve, reject, deadline };
      if (retry) this.#waiters.unshift(w);
      else this.#waiters.push(w);
      this.#pump();
      if (!w.settled && Number.isFinite(deadline)) this.#armDeadline(w);
    });
  }

  #armDeadline(w: Waiter): void {
    const now = this.#clock.now();
    w.timer = this.#clock.setTimeout(
      () => {
        w.timer = undefined;
        if (w.settled) return;
        // Not there yet (a timer capped at Node's maximum): set the next stretch.
        if (this.#clock.now() < w.deadline) return this.#armDeadline(w);
        this.#pump();
      },
      timerMs(w.deadline - now),
    );
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
      this.#windowBurstS = info.remaining === undefined ? 0 : info.windowMs / 1000;
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
      if (remaining === 0 && resetMs && others) {
        this.#pause(now, this.#quota.windowEnd(now, resetMs) - now, "quota");
      }
    }
    if (status === 429) {
      this.#pause(now, info.retryAfterMs ?? info.resetMs ?? 0, "pause");
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
    this.#tokens = Math.min(this.#tokens, this.#capacityAt(now));
  }

  #pause(now: number, ms: number, reason: HoldReason): void {
    const until = now + Math.min(ms, MAX_PAUSE_MS);
    if (until <= this.#pausedUntil) return;
    this.#pausedUntil = until;
    this.#pauseReason = reason;
  }

  /**
   * Tokens the bucket holds now. A whole window's worth while no other program is seen using the
   * quota; with others, answers come too late to stop a burst from overrunning what they left.
   */
  #capacityAt(now: number): number {
    if (this.#windowBurstS === 0 || this.#quota.shared(now)) return this.#capacity;
    return Math.max(this.#capacity, this.#rate * this.#windowBurstS);
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
      this.#tokens = Math.min(this.#capacityAt(now), this.#tokens + added);
    }
    this.#lastRefill = now;
  }

  #pump(): void {
    if (this.#waiters.length === 0) return;
    const now = this.#clock.now();
    // Until a first response tells what the server allows, one request at a time: a burst of 32
    // into a quota of 10 would only buy 429s and a pause.
    const limit = this.#heard ? this.maxConcurrency : 1;
    while (this.#waiters.length > 0) {
      const hold = this.#holdUntil(now);
      if (hold) {
        this.#failPast(hold, now);
        // Only an answer (a release) ends an open hold; a timer ends the rest.
        if (hold.until > now && this.#waiters.length > 0) this.#wakeAt(hold.until, now);
        return;
      }
      if (this.#inFlight >= limit) return;
      if (this.#enabled) this.#tokens -= 1;
      this.#inFlight++;
      const w = this.#waiters.shift()!;
      w.settled = true;
      if (w.timer !== undefined) this.#clock.clearTimeout(w.timer);
      w.resolve(this.#permit(now));
    }
  }

  /** Fails every waiter whose deadline comes before the hold ends: waiting cannot help it. */
  #failPast(hold: Hold, now: number): void {
    const heldMs = hold.open ? undefined : Math.ceil(hold.until - now);
    this.#waiters = this.#waiters.filter((w) => {
      if (w.deadline >= hold.until && !(hold.open && w.deadline <= now)) return true;
      w.settled = true;
      if (w.timer !== undefined) this.#clock.clearTimeout(w.timer);
      w.reject(new LimiterHoldError(heldMs, hold.reason, Math.max(0, w.deadline - now)));
      return false;
    });
    if (this.#waiters.length === 0 && this.#timer !== undefined) {
      this.#clock.clearTimeout(this.#timer);
      this.#timer = undefined;
      this.#timerAt = Infinity;
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
      timerMs(at - now),
    );
  }
}

/** A timer's delay: at least 1 ms, at most Node's maximum (a longer one would fire at once). */
const timerMs = (ms: number) => Math.min(MAX_TIMER_MS, Math.max(1, Math.ceil(ms)));

const shared = new Map<string, RequestLimiter>();
let sharedClock = realLimiterClock;

/**
 * @internal For tests: the clock of the limiters {@link limiterFor} makes from now on, so a
 * provider test's waits (the transport's backoff included) run on virtual time; undefined
 * restores real time.
 */
export function setSharedLimiterClock(clock?: LimiterClock): void {
  sharedClock = clock ?? realLimiterClock;
}

/**
 * The limiter for an API URL (origin plus base path) and token, created on first use. The map
 * key holds a hash of the token, never the token.
 */
export function limiterFor(apiUrl: URL, token: string): RequestLimiter {
  const key = `${apiUrl.origin}${apiUrl.pathname.replace(/\/+$/, "")} ${tokenDigest(token)}`;
  let limiter = shared.get(key);
  if (!limiter) {
    limiter = new RequestLimiter({ clock: sharedClock });
    shared.set(key, limiter);
  }
  return limiter;
}
