import { DeadlineQueue } from "./deadline-queue";
import { HostingInputError, LimiterHoldError, type HoldReason } from "./errors";
import { realClock, type Clock } from "../base";
import { QuotaWindow } from "./quota-window";
import type { RateLimitInfo } from "./rate-limit-headers";
import { RateController } from "./rate-controller";
import { DEFAULT_RETRY_POLICY, isRefused, type RetryPolicy } from "./retry";

/*
 * Why a limiter at all: the server limits the token, not one client, and a burst it refuses costs
 * a pause for everyone. So requests wait their turn here, paced by what the server's answers say,
 * and a wait that would outlast the call's deadline fails at once instead. The parts: the
 * concurrency cap and pauses (here), the pace (rate-controller.ts), the quota window
 * (quota-window.ts), the waiting line (deadline-queue.ts), the clock (base/clock.ts, the package's one); one
 * limiter per URL and token is shared-limiters.ts's job. CONTRIBUTING.md#the-rate-limiter has
 * the rules.
 */

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
  clock?: Clock;
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

/**
 * The shared limiter of one (API URL, token): bounds requests in flight and paces them with a
 * token bucket learned from the server's rate-limit headers and 429s. Every client of that URL
 * and token in the process shares one.
 */
export class RequestLimiter {
  /** The most requests in flight at once. */
  readonly maxConcurrency: number;
  readonly #clock: Clock;
  readonly #queue: DeadlineQueue<Permit>;
  readonly #pace: RateController;
  #inFlight = 0;
  #pausedUntil = 0;
  #pauseReason: HoldReason = "pause";
  #heard = false;
  // The stated quota's window: ours in it, what the server says is left, what others use.
  #quota = new QuotaWindow();
  #seqOf = new WeakMap<Permit, number>();

  constructor(options: number | RequestLimiterOptions = {}) {
    const o = typeof options === "number" ? { maxConcurrency: options } : options;
    this.maxConcurrency = o.maxConcurrency ?? 32;
    const quotaShare = o.quotaShare ?? 0.95;
    const burstS = (o.burstMs ?? 0) / 1000;
    // A concurrency of 0 (or NaN) would hold every request forever.
    if (!Number.isInteger(this.maxConcurrency) || this.maxConcurrency < 1) {
      throw new HostingInputError("maxConcurrency", "maxConcurrency must be a whole number ≥ 1");
    }
    if (!(quotaShare > 0 && quotaShare <= 1)) {
      throw new HostingInputError("quotaShare", "quotaShare must be a number above 0, at most 1");
    }
    if (!(burstS >= 0 && Number.isFinite(burstS))) {
      throw new HostingInputError("burstMs", "burstMs must be a number of ms ≥ 0");
    }
    this.#clock = o.clock ?? realClock;
    this.#queue = new DeadlineQueue(this.#clock, () => this.#pump());
    this.#pace = new RateController(quotaShare, burstS, this.#quota, this.#clock.now());
  }

  /** The limiter's time source: deadlines given to {@link acquire} are on this clock. */
  get clock(): Clock {
    return this.#clock;
  }

  /** Requests per second the bucket lets through; undefined while it is off. */
  get rate(): number | undefined {
    return this.#pace.rate;
  }

  /** When the current pause (Retry-After, an exhausted window) ends; 0 when none. */
  get pausedUntil(): number {
    return this.#pausedUntil;
  }

  /** Rate cuts made so far (one per congestion event). */
  get throttles(): number {
    return this.#pace.throttles;
  }

  /** Requests in flight now. */
  get inFlight(): number {
    return this.#inFlight;
  }

  /** Whether requests are waiting their turn now (for the pace, a pause, a window or a slot). */
  get congested(): boolean {
    return this.#queue.length > 0;
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
   * Resolves once a slot is free, no pause is in force and the bucket has a token. A retry goes
   * to the front of the queue: it has waited longest. With a `deadline` (ms, on {@link clock}),
   * it rejects with a {@link LimiterHoldError} as soon as the limiter is known to hold it past
   * then, or when the deadline comes while the server's limits still hold it. A wait for a free
   * slot alone is not held against it: in-flight requests end by their own limits.
   */
  acquire(retry = false, deadline = Infinity): Promise<Permit> {
    return new Promise((resolve, reject) => {
      const w = this.#queue.add({ resolve, reject, deadline }, retry);
      this.#pump();
      this.#queue.armDeadline(w);
    });
  }

  /**
   * Learns from one response: its status and what its headers say about the limit. Which
   * statuses refuse a request (a 429) is the sender's retry `policy`'s decision.
   */
  observe(
    permit: Permit,
    status: number,
    info: RateLimitInfo = {},
    policy: RetryPolicy = DEFAULT_RETRY_POLICY,
  ): void {
    const now = this.#clock.now();
    const refused = isRefused(status, policy);
    this.#heard = true;
    this.#pace.measure(now);
    if (info.limit !== undefined && info.windowMs) {
      this.#quota.quota = { limit: info.limit, windowMs: info.windowMs };
      this.#pace.stated(info.limit, info.windowMs, info.remaining !== undefined, now);
    }
    if (info.remaining !== undefined) {
      const seq = this.#seqOf.get(permit) ?? -1;
      const { remaining, resetMs } = info;
      const others = this.#quota.learn(seq, permit.sentAt, now, remaining, resetMs, refused);
      // A window our own requests used up needs no pause: the window rule holds ours back.
      if (remaining === 0 && resetMs && others) {
        this.#pause(now, this.#quota.windowEnd(now, resetMs) - now, "quota");
      }
    }
    if (refused) {
      this.#pause(now, this.#refusalPauseMs(now, info), "pause");
      // A refusal the server explains with its window (none left, and when it resets) is the
      // window's business, which the pause and the quota rules handle; cutting the pace too would
      // leave the next windows half used. Any other 429 (no window stated, or one that says
      // requests remain: a limit besides the window) says the pace is wrong.
      if (info.remaining !== 0 || !this.#quota.quota) {
        this.#pace.throttled(permit.sentAt, now);
      }
    } else {
      this.#pace.answered(now);
    }
    this.#pump();
  }

  /**
   * Whether, until when and why the front of the queue is held; undefined when it may go now.
   * `open`: past `until` it waits for an answer too (a window that our own requests used up).
   */
  #holdUntil(now: number): Hold | undefined {
    const pacedUntil = this.#pace.nextTokenAt(now);
    let hold: Hold | undefined;
    const later = (until: number, reason: HoldReason) => {
      if (until <= now) return;
      if (!Number.isFinite(until)) hold = { until: hold?.until ?? now, reason, open: true };
      else if (!hold || until > hold.until) hold = { until, reason, open: hold?.open ?? false };
    };
    later(this.#pausedUntil, this.#pauseReason);
    if (pacedUntil !== undefined) later(pacedUntil, "pacing");
    const full = this.#quota.fullUntil(now);
    if (full !== undefined) later(full, "quota");
    return hold;
  }

  /**
   * How long a 429 holds everything back: what Retry-After says, or the window's reset. When both
   * say the same whole seconds of a stated window, the window's end as the quota rules know it
   * (see QuotaWindow.windowEnd) is taken: a refusal 10 ms before a reset must not cost a second.
   */
  #refusalPauseMs(now: number, info: RateLimitInfo): number {
    const { retryAfterMs, resetMs } = info;
    if (resetMs === undefined) return retryAfterMs ?? 0;
    if (retryAfterMs !== undefined && retryAfterMs !== resetMs) return retryAfterMs;
    return this.#quota.quota ? this.#quota.windowEnd(now, resetMs) - now : resetMs;
  }

  #pause(now: number, ms: number, reason: HoldReason): void {
    const until = now + Math.min(ms, MAX_PAUSE_MS);
    if (until <= this.#pausedUntil) return;
    this.#pausedUntil = until;
    this.#pauseReason = reason;
  }

  #pump(): void {
    if (this.#queue.length === 0) return;
    const now = this.#clock.now();
    // Until a first response tells what the server allows, one request at a time: a burst of 32
    // into a quota of 10 would only buy 429s and a pause.
    const limit = this.#heard ? this.maxConcurrency : 1;
    while (this.#queue.length > 0) {
      const hold = this.#holdUntil(now);
      if (hold) {
        // Waiting cannot help a waiter whose deadline comes before the hold ends.
        const heldMs = hold.open ? undefined : Math.ceil(hold.until - now);
        this.#queue.failBefore(
          hold.until,
          hold.open,
          now,
          (leftMs) => new LimiterHoldError(heldMs, hold.reason, leftMs),
        );
        // Only an answer (a release) ends an open hold; a timer ends the rest.
        if (hold.until > now && this.#queue.length > 0) this.#queue.wakeAt(hold.until, now);
        return;
      }
      if (this.#inFlight >= limit) return;
      this.#pace.take();
      this.#inFlight++;
      this.#queue.grant(this.#permit(now));
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
}
