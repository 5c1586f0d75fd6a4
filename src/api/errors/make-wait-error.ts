import type { HoldReason } from "../limiter";
import { duration } from "../timeouts";
import { RateLimitError, type WaitLimit } from "./rate-limit-error";

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
