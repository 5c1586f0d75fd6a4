import type { Permit, RequestLimiter } from "../../src/api/limiter";
import type { RateLimitInfo } from "../../src/api/rate-limit-headers";
import type { TestClock } from "./test-clock";

/*
 * Rate-limited servers as plain counters on a manual clock, for the limiter's decisions over
 * many windows: each request is counted when it arrives and answered some time later, with the
 * delays varying from request to request (deterministically), as on a loaded machine.
 */

/** Counts one arrival at `at`: whether it is over the limit, and what the headers would say. */
export type Counter = (at: number) => { over: boolean; remaining: number; resetMs: number };

/** The emulator's rule: a window starts with the first request after the last one expired. */
export function fixedWindow(limit: number, windowMs: number): Counter {
  let start = -Infinity;
  let count = 0;
  return (at) => {
    if (at - start >= windowMs) {
      start = at;
      count = 0;
    }
    count++;
    return {
      over: count > limit,
      remaining: Math.max(0, limit - count),
      resetMs: start + windowMs - at,
    };
  };
}

/** A sliding log: at most `limit` arrivals within any `windowMs`. */
export function slidingWindow(limit: number, windowMs: number): Counter {
  const arrivals: number[] = [];
  return (at) => {
    while (arrivals.length > 0 && arrivals[0] <= at - windowMs) arrivals.shift();
    arrivals.push(at);
    const n = arrivals.length;
    return {
      over: n > limit,
      remaining: Math.max(0, limit - n),
      resetMs: arrivals[Math.max(0, n - limit)] + windowMs - at,
    };
  };
}

export interface Traffic {
  /** Requests answered (any status). */
  answered: number;
  /** Of them, refused with 429. */
  refused: number;
}

/**
 * Keeps `limiter` busy with requests for `ms`, each arriving 1–12 ms after it is let through and
 * answered 0–90 ms after it arrives. `headers` picks what the answers say about the limit.
 */
export function drive(
  clock: TestClock,
  limiter: RequestLimiter,
  counter: Counter,
  ms: number,
  headers: (seen: ReturnType<Counter>) => RateLimitInfo,
): Promise<Traffic> {
  return driveMany(clock, [limiter], counter, ms, headers).then((t) => t[0]);
}

/**
 * {@link drive} for several limiters against one counter: programs that share a token and know
 * nothing of each other but what the answers say. One {@link Traffic} per limiter.
 */
export async function driveMany(
  clock: TestClock,
  limiters: RequestLimiter[],
  counter: Counter,
  ms: number,
  headers: (seen: ReturnType<Counter>) => RateLimitInfo,
): Promise<Traffic[]> {
  const traffic = limiters.map(() => ({ answered: 0, refused: 0 }));
  const due: Array<{ at: number; run: () => void }> = [];
  let n = 0;
  const ask = (k: number) => {
    void limiters[k].acquire().then((p: Permit) => {
      const i = n++;
      const arrives = clock.now() + 1 + ((i * 7) % 12);
      due.push({
        at: arrives,
        run: () => {
          const seen = counter(arrives);
          due.push({
            at: arrives + ((i * 37) % 91),
            run: () => {
              traffic[k].answered++;
              if (seen.over) traffic[k].refused++;
              limiters[k].observe(p, seen.over ? 429 : 200, {
                ...headers(seen),
                ...(seen.over ? { retryAfterMs: Math.max(1000, seen.resetMs) } : {}),
              });
              p.release();
              ask(k);
            },
          });
        },
      });
    });
  };
  for (let k = 0; k < limiters.length; k++) for (let i = 0; i < 64; i++) ask(k);
  const end = clock.now() + ms;
  while (clock.now() < end) {
    for (;;) {
      const i = due.findIndex((d) => d.at <= clock.now());
      if (i < 0) break;
      due.splice(i, 1)[0].run();
    }
    await clock.advance(1);
  }
  return traffic;
}
