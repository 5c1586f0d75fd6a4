import { boundedMemo } from "../base";

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

export type Scrub = (text: string) => string;

/**
 * A scrubber for one token. Its forms are made on first use (most clients never scrub anything)
 * and shared by every client of the token.
 */
export const makeScrubber: (token: string) => Scrub = boundedMemo((token) => {
  let built: Scrub | undefined;
  return (text) => (built ??= buildScrubber(token))(text);
});

/**
 * The base64 of `secret` wherever it sits in a larger encoded blob: for each of the three byte
 * alignments, the characters that only the secret's own bytes decide.
 */
function base64Forms(secret: Buffer): string[] {
  return [0, 1, 2].map((k) => {
    const enc = Buffer.concat([Buffer.alloc(k), secret]).toString("base64");
    return enc.slice(Math.ceil((8 * k) / 6), Math.floor((8 * (k + secret.length)) / 6));
  });
}

function buildScrubber(token: string): Scrub {
  const secrets = [token, ...token.split(".").filter((p) => p.length >= MIN_PART)].filter(
    (s) => s.length > 0,
  );
  const encoded = new Set<string>();
  for (const s of secrets) {
    const bytes = Buffer.from(s);
    for (const f of [...base64Forms(bytes), bytes.toString("hex")]) {
      if (f.length >= MIN_PART) encoded.add(fold(f));
    }
  }
  const plain = [...new Set(secrets.map(fold))];
  const blobs = [...encoded];
  return (text) => {
    const out = redact(text, findAll(text, plain, blobs));
    return out.replace(BEARER, `Bearer ${REDACTED}`).replace(JWT_LIKE, REDACTED);
  };
}

/**
 * Text as compared: ASCII letters in lower case (matches ignore case; other letters are kept, so
 * every character stays one character), and base64url's `-` and `_` as standard base64's `+` and
 * `/` (either alphabet matches).
 */
function fold(s: string): string {
  return s.replace(/[A-Z_-]/g, (c) => (c === "-" ? "+" : c === "_" ? "/" : c.toLowerCase()));
}

/** What may break a secret without being part of it: whitespace, or a JSON escape of it. */
const BREAKS = /[\t-\r \u00a0\u2028\u2029]|\\[nrtbf]|\\u(?:000[9a-dA-D]|0020|00[aA]0|202[89])/g;

/**
 * The text with breaks left out and characters folded, and where each of its characters came
 * from: `at[j]` is where run `j` starts in the folded text, `shift[j]` how far on it lies in the
 * original (kept sparse: one entry per break, not per character).
 */
function folded(text: string): { text: string; at: number[]; shift: number[] } {
  const at = [0];
  const shift = [0];
  const parts: string[] = [];
  let run = 0;
  let skipped = 0;
  for (const m of text.matchAll(BREAKS)) {
    parts.push(text.slice(run, m.index));
    skipped += m[0].length;
    run = m.index + m[0].length;
    at.push(run - skipped);
    shift.push(skipped);
  }
  parts.push(text.slice(run));
  return { text: fold(parts.join("")), at, shift };
}

/** Where folded position `k` lies in the original text. */
function original(map: { at: number[]; shift: number[] }, k: number): number {
  let lo = 0;
  let hi = map.at.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (map.at[mid] <= k) lo = mid;
    else hi = mid - 1;
  }
  return k + map.shift[lo];
}

interface Found {
  start: number;
  end: number;
  /** An encoded form: the blob around it goes too. */
  blob: boolean;
}

/** Every place a form occurs, broken or not, in any case, as ranges of the original text. */
function findAll(text: string, plain: string[], blobs: string[]): Found[] {
  const map = folded(text);
  const found: Found[] = [];
  const look = (forms: string[], blob: boolean) => {
    for (const form of forms) {
      for (let k = map.text.indexOf(form); k >= 0; k = map.text.indexOf(form, k + form.length)) {
        const end = original(map, k + form.length - 1) + 1;
        found.push({ start: original(map, k), end, blob });
      }
    }
  };
  look(plain, false);
  look(blobs, true);
  return found.sort((a, b) => a.start - b.start);
}

/** Base64 (either alphabet) and hex characters, and the line breaks MIME puts between them. */
const BLOB_CHAR = /[A-Za-z0-9+/_\r\n-]/;
/** Padding ends a blob; it never starts one (`token=` is a label, not base64). */
const BLOB_END = /[A-Za-z0-9+/_=\r\n-]/;

/** Replaces each range (an encoded one with the run of blob characters around it). */
function redact(text: string, found: Found[]): string {
  let out = "";
  let done = 0;
  for (const f of found) {
    let { start, end } = f;
    if (end <= done) continue;
    // Overlapping the last redaction (a part inside a longer part): that one grows, no second mark.
    const joined = start < done;
    start = Math.max(start, done);
    let tail = "";
    if (f.blob) {
      while (start > done && BLOB_CHAR.test(text[start - 1])) start--;
      while (end < text.length && BLOB_END.test(text[end])) end++;
      // Line breaks at the blob's edges are the text's own (a form never starts or ends in one).
      while (/[\r\n]/.test(text[start])) start++;
      while (/[\r\n]/.test(text[end - 1])) tail = text[--end] + tail;
    }
    out += text.slice(done, start) + (joined ? "" : REDACTED) + tail;
    done = end + tail.length;
  }
  return out + text.slice(done);
}

/** How many errors one scrub rewrites: a cycle or a hostile depth stops the walk there. */
const MAX_ERRORS = 16;

/**
 * Scrubs an error in place, and the errors it holds: its `cause` chain, the `errors` of an
 * AggregateError, an error kept in a field. Of each, every own string property, enumerable or not
 * (message, stack, a string `cause`, what undici adds), and one level into the plain objects it
 * carries (`headers`). Errors from other code are rewritten too, since they end up inside ours.
 */
export function scrubError<E>(err: E, scrub: Scrub): E {
  const seen = new Set<object>();
  const todo: unknown[] = [err];
  while (todo.length > 0 && seen.size < MAX_ERRORS) {
    const e = todo.shift();
    if (!isObject(e) || seen.has(e)) continue;
    seen.add(e);
    for (const [key, v] of scrubStrings(e, scrub)) {
      // A `cause` is walked like an error whatever it is. Other objects are rewritten one level
      // deep, and the errors they hold (an AggregateError's `errors`) walked.
      if (v instanceof Error || key === "cause") {
        todo.push(v);
      } else {
        const held = scrubStrings(v, scrub).map(([, inner]) => inner);
        todo.push(...held.filter((inner) => inner instanceof Error));
      }
    }
  }
  return err;
}

const isObject = (v: unknown): v is object => typeof v === "object" && v !== null;

/**
 * Rewrites the own string properties of `rec` (values only: no getter is called), and returns
 * the objects among the others.
 */
function scrubStrings(rec: object, scrub: Scrub): Array<[string, object]> {
  const objects: Array<[string, object]> = [];
  for (const [key, desc] of Object.entries(Object.getOwnPropertyDescriptors(rec))) {
    const value: unknown = desc.value;
    if (isObject(value)) objects.push([key, value]);
    if (typeof value !== "string") continue;
    try {
      Object.defineProperty(rec, key, { ...desc, value: scrub(value) });
    } catch {
      // A frozen property of someone else's object: nothing we can do in place.
    }
  }
  return objects;
}
