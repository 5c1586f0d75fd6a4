import { realClock, type Clock } from "../base";
import { RequestLimiter } from "./limiter";
import { tokenDigest } from "./token-digest";

/*
 * One limiter per (API URL, token) in the process, shared by every client, resource and data
 * source: the server limits the token, not one client.
 */

const shared = new Map<string, RequestLimiter>();
let sharedClock = realClock;

/**
 * @internal For tests: the clock of the limiters {@link limiterFor} makes from now on, so a
 * provider test's waits (the transport's backoff included) run on virtual time; undefined
 * restores real time.
 */
export function setSharedLimiterClock(clock?: Clock): void {
  sharedClock = clock ?? realClock;
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
