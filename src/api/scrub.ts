/*
 * Server-supplied text (error bodies, headers, socket errors) may echo our Authorization header
 * back, whole or cut short, and not always as sent. Everything such text passes through on its
 * way into an error is scrubbed here: the token and its longer parts, also base64-encoded
 * (standard or URL-safe, at any alignment, so inside a larger encoded blob too, e.g. of the whole
 * `Bearer …` header) and hex-encoded; every match is case-insensitive and may be broken by
 * whitespace, line breaks or their JSON escapes. Then any `Bearer …` value and anything shaped
 * like a JWT (`eyJ…`, the base64url of `{"`), which also catches a truncated or another token.
 */

export const REDACTED = "[redacted]";

const BEARER = /\bBearer\s+[^\s"',;<>]+/gi;
/** A JWT or the start of one: a base64url JSON header, then optional further parts. */
const JWT_LIKE = /eyJ[A-Za-z0-9_-]{4,}(?:\.[A-Za-z0-9_-]*){0,2}/g;
/** Parts of the token, and encoded forms, shorter than this are too common to redact. */
const MIN_PART = 8;
/** What may break a secret in a reply: whitespace, and JSON's escapes of it. */
const BREAK = String.raw`(?:\s|\\[nrtbf]|\\u00(?:0[9a-dA-D]|20))*`;

export type Scrub = (text: string) => string;

/**
 * The base64 of `secret` wherever it sits in a larger encoded blob: for each of the three byte
 * alignments, the characters that only the secret's own bytes decide.
 */
function base64Forms(secret: Buffer): string[] {
  const out: string[] = [];
  for (let k = 0; k < 3; k++) {
    const enc = Buffer.concat([Buffer.alloc(k), secret]).toString("base64");
    out.push(enc.slice(Math.ceil((8 * k) / 6), Math.floor((8 * (k + secret.length)) / 6)));
  }
  return out;
}

/** A pattern for one form: case-insensitive (below), any break between characters, and the
 * URL-safe alphabet wherever the standard one has `+` or `/`. */
function pattern(form: string): string {
  return [...form]
    .map((c) =>
      c === "+" ? "[+-]" : c === "/" ? "[/_]" : c.replace(/[.*+?^${}()|[\]\\-]/g, "\\$&"),
    )
    .join(BREAK);
}

const scrubbers = new Map<string, Scrub>();

/**
 * A scrubber for one token. Its patterns are built on first use (most clients never scrub
 * anything) and shared by every client of the token.
 */
export function makeScrubber(token: string): Scrub {
  let scrub = scrubbers.get(token);
  if (!scrub) {
    let built: Scrub | undefined;
    scrub = (text) => (built ??= buildScrubber(token))(text);
    // A handful of tokens per process; the cap only guards against a caller minting many.
    if (scrubbers.size >= 64) scrubbers.clear();
    scrubbers.set(token, scrub);
  }
  return scrub;
}

function buildScrubber(token: string): Scrub {
  const secrets = [token, ...token.split(".").filter((p) => p.length >= MIN_PART)].filter(
    (s) => s.length > 0,
  );
  const encoded = new Set<string>();
  for (const s of secrets) {
    const bytes = Buffer.from(s, "utf8");
    for (const f of [...base64Forms(bytes), bytes.toString("hex")]) {
      if (f.length >= MIN_PART) encoded.add(f);
    }
  }
  const plain = oneOf(secrets);
  const inBlob = oneOf([...encoded]);
  return (text) => {
    let out = plain ? text.replace(plain, REDACTED) : text;
    // An encoded token is part of a larger blob (an encoded header, say): the blob goes whole.
    if (inBlob) out = redactBlobs(out, inBlob);
    return out.replace(BEARER, `Bearer ${REDACTED}`).replace(JWT_LIKE, REDACTED);
  };
}

/** One case-insensitive pattern for all forms, longest first (a whole token is one match). */
function oneOf(forms: string[]): RegExp | undefined {
  if (forms.length === 0) return undefined;
  const sorted = [...new Set(forms)].sort((a, b) => b.length - a.length);
  return new RegExp(sorted.map(pattern).join("|"), "gi");
}

/** Base64 (either alphabet) and hex characters, and the line breaks MIME puts between them. */
const BLOB_CHAR = /[A-Za-z0-9+/_\r\n-]/;
/** Padding ends a blob; it never starts one (`token=` is a label, not base64). */
const BLOB_END = /[A-Za-z0-9+/_=\r\n-]/;

/** Redacts each match with the run of base64 characters (and line breaks) around it. */
function redactBlobs(text: string, re: RegExp): string {
  let out = "";
  let done = 0;
  for (const m of text.matchAll(re)) {
    let start = m.index;
    let end = start + m[0].length;
    if (start < done) continue;
    while (start > done && BLOB_CHAR.test(text[start - 1])) start--;
    while (end < text.length && BLOB_END.test(text[end])) end++;
    // Line breaks at the blob's edges are the text's own.
    while (start < end && /[\r\n]/.test(text[start])) start++;
    let tail = "";
    while (end > start && /[\r\n]/.test(text[end - 1])) tail = text[--end] + tail;
    out += text.slice(done, start) + REDACTED + tail;
    done = end + tail.length;
  }
  return out + text.slice(done);
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
