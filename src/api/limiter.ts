/**
 * A concurrency gate shared by every client that talks to one API URL. After a 429 it pauses
 * everyone until the server's Retry-After and halves how many requests may be in flight; each
 * success lets one more back in. A hundred resources then queue instead of stampeding.
 */
export class RequestLimiter {
  /** The most requests in flight at once, and the limit a run of successes climbs back to. */
  readonly maxConcurrency: number;
  #limit: number;
  #inFlight = 0;
  #pausedUntil = 0;
  #waiters: Array<() => void> = [];
  #timer: NodeJS.Timeout | undefined;

  constructor(maxConcurrency = 32) {
    this.maxConcurrency = maxConcurrency;
    this.#limit = maxConcurrency;
  }

  /** How many requests may be in flight now (halved by each 429). */
  get limit(): number {
    return this.#limit;
  }

  /** Resolves with a release function once a slot is free and no pause is in force. */
  acquire(): Promise<() => void> {
    return new Promise((resolve) => {
      this.#waiters.push(() => {
        this.#inFlight++;
        let released = false;
        resolve(() => {
          if (released) return;
          released = true;
          this.#inFlight--;
          this.#pump();
        });
      });
      this.#pump();
    });
  }

  /** A 429 arrived: pause everyone for `retryAfterMs` and halve the limit. */
  noteRateLimited(retryAfterMs: number): void {
    this.#pausedUntil = Math.max(this.#pausedUntil, Date.now() + retryAfterMs);
    this.#limit = Math.max(1, Math.floor(this.#limit / 2));
  }

  /** A request succeeded: let one more in flight, up to `maxConcurrency`. */
  noteSuccess(): void {
    if (this.#limit < this.maxConcurrency) this.#limit++;
  }

  #pump(): void {
    const wait = this.#pausedUntil - Date.now();
    if (wait > 0) {
      if (this.#timer === undefined) {
        this.#timer = setTimeout(() => {
          this.#timer = undefined;
          this.#pump();
        }, wait);
      }
      return;
    }
    while (this.#waiters.length > 0 && this.#inFlight < this.#limit) {
      this.#waiters.shift()!();
    }
  }
}

const shared = new Map<string, RequestLimiter>();

/** The limiter for an API URL (origin plus base path), created on first use. */
export function limiterFor(apiUrl: URL): RequestLimiter {
  const key = apiUrl.origin + apiUrl.pathname.replace(/\/+$/, "");
  let limiter = shared.get(key);
  if (!limiter) {
    limiter = new RequestLimiter();
    shared.set(key, limiter);
  }
  return limiter;
}
