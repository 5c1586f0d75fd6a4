import { RateLimitError, type HoldReason, type WaitLimit } from "./errors";

/*
 * Waits that would end past a call's deadline, failed at once with what was asked and why; and
 * limits and waits in words, in the units users set them in.
 */

/** `1.5 s`, `60 s`: limits in the unit users set them in. */
export function seconds(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`;
}

/** A wait in words for an error, from ms to millennia: `1.5 s`, `12 min`, `3 h`, `54 000 years`. */
export function duration(ms: number): string {
  const units: Array<[number, string]> = [
    [365.25 * 86_400_000, "years"],
    [86_400_000, "days"],
    [3_600_000, "h"],
    [60_000, "min"],
  ];
  for (const [size, name] of units) {
    if (ms >= 2 * size) return `${Math.round(ms / size).toLocaleString("en-US")} ${name}`;
  }
  return seconds(ms);
}

/** The deadline a wait ran into: which option set it, and its value. */
export interface WaitDeadline {
  limit: WaitLimit;
  limitMs: number;
}

const past = (d: WaitDeadline) =>
  `past the call's deadline (${d.limit}: ${duration(d.limitMs)}), so it fails now instead of ` +
  `waiting; try again later, or raise ${d.limit} if such waits are expected`;

/** A 429 whose asked wait ends past the call's deadline: the refusal, saying what was asked. */
export function askedPastDeadline(err: RateLimitError, waitMs: number, d: WaitDeadline) {
  const asked = err.retryAfterMs ?? waitMs;
  return new RateLimitError(
    { ...err, waitMs, waitLimit: d.limit, waitLimitMs: d.limitMs },
    `the service asked to wait ${duration(asked)} before the next request, ${past(d)}`,
  );
}

const HELD_BY: Record<HoldReason, string> = {
  pause: "a pause the service asked for on an earlier reply (Retry-After or a reset time)",
  quota: "the service's stated quota, used up until its window resets",
  pacing: "pacing to the service's rate limit",
};

/** A request the shared limiter would hold past the call's deadline: not sent at all. */
export function heldPastDeadline(
  call: { method: string; path: string },
  held: { heldMs: number | undefined; reason: HoldReason },
  d: WaitDeadline,
): RateLimitError {
  const howLong =
    held.heldMs === undefined ? "until an earlier request is answered" : duration(held.heldMs);
  const what = `not sent: ${HELD_BY[held.reason]} holds requests ${held.heldMs === undefined ? "" : "for "}${howLong}`;
  const err = new RateLimitError(
    {
      status: 429,
      bodyMessage: what,
      method: call.method,
      path: call.path,
      waitMs: held.heldMs,
      waitLimit: d.limit,
      waitLimitMs: d.limitMs,
    },
    past(d),
  );
  // Nothing was sent, so no status came back: say it plainly.
  const message = `${call.method} ${call.path} was ${what}, ${past(d)}`;
  if (err.stack) err.stack = err.stack.replace(err.message, message);
  err.message = message;
  return err;
}
