/*
 * Server-supplied text (error bodies, headers, socket errors) may echo our Authorization header
 * back, whole or cut short. Everything such text passes through on its way into an error is
 * scrubbed here: the token itself, its longer parts, any `Bearer …` value and anything shaped
 * like a JWT (`eyJ…`, the base64url of `{"`), which also catches a truncated or another token.
 */

export const REDACTED = "[redacted]";

const BEARER = /\bBearer\s+[^\s"',;<>]+/gi;
/** A JWT or the start of one: a base64url JSON header, then optional further parts. */
const JWT_LIKE = /eyJ[A-Za-z0-9_-]{4,}(?:\.[A-Za-z0-9_-]*){0,2}/g;
const MIN_PART = 8;

export type Scrub = (text: string) => string;

/** A scrubber for one token. */
export function makeScrubber(token: string): Scrub {
  const secrets = [token, ...token.split(".").filter((p) => p.length >= MIN_PART)]
    .filter((s) => s.length > 0)
    .sort((a, b) => b.length - a.length);
  return (text) => {
    let out = text;
    for (const s of secrets) out = out.split(s).join(REDACTED);
    return out.replace(BEARER, `Bearer ${REDACTED}`).replace(JWT_LIKE, REDACTED);
  };
}

/**
 * Scrubs an error in place, and its `cause` chain: message, stack and every own string property
 * (undici errors carry some). Errors from other code are rewritten too, since they end up inside
 * ours; a cycle or a very deep chain stops the walk.
 */
export function scrubError<E>(err: E, scrub: Scrub): E {
  const seen = new Set<object>();
  for (let e: unknown = err; e && typeof e === "object" && !seen.has(e) && seen.size < 16;) {
    seen.add(e);
    const rec = e as Record<string, unknown>;
    scrubStrings(rec, ["message", "stack", ...Object.keys(rec)], scrub);
    // One level into plain objects such as `headers`.
    for (const v of Object.values(rec)) {
      if (v && typeof v === "object" && !(v instanceof Error)) {
        scrubStrings(v as Record<string, unknown>, Object.keys(v), scrub);
      }
    }
    e = rec.cause;
  }
  return err;
}

function scrubStrings(rec: Record<string, unknown>, keys: string[], scrub: Scrub): void {
  for (const key of keys) {
    const desc = Object.getOwnPropertyDescriptor(rec, key);
    if (!desc || typeof desc.value !== "string") continue;
    const clean = scrub(desc.value);
    if (clean === desc.value) continue;
    try {
      Object.defineProperty(rec, key, { ...desc, value: clean });
    } catch {
      // A frozen property of someone else's object: nothing we can do in place.
    }
  }
}
