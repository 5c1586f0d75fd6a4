/*
 * Which file names a zip archive carries faithfully. The archive writer turns `\` into `/` and
 * refuses names that look absolute (`/x`, `C:x`), and a name that is not UTF-8 cannot be written
 * as the same bytes: such a name would be uploaded as another file than the one hashed, so check
 * refuses it, naming the file (escaped) and the fix.
 */

/** A file name as messages show it: control characters and bytes that are not UTF-8 as escapes. */
export function shownName(name: Buffer | string): string {
  const bytes = typeof name === "string" ? Buffer.from(name, "utf8") : name;
  let out = "";
  let i = 0;
  while (i < bytes.length) {
    const len = utf8Length(bytes, i);
    if (len === 0) {
      out += `\\x${bytes[i].toString(16).padStart(2, "0")}`;
      i += 1;
      continue;
    }
    const ch = bytes.toString("utf8", i, i + len);
    const code = ch.codePointAt(0)!;
    out += code < 0x20 || code === 0x7f ? `\\x${code.toString(16).padStart(2, "0")}` : ch;
    i += len;
  }
  return out;
}

/** The length of the well-formed UTF-8 sequence at `i`, or 0 when the byte there starts none. */
function utf8Length(b: Buffer, i: number): number {
  const c = b[i];
  if (c < 0x80) return 1;
  const len =
    c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
  if (len === 0 || i + len > b.length) return 0;
  for (let k = 1; k < len; k++) if ((b[i + k] & 0xc0) !== 0x80) return 0;
  // Overlong forms, surrogates and code points past U+10FFFF are not UTF-8 either.
  const second = b[i + 1];
  if (c === 0xe0 && second < 0xa0) return 0;
  if (c === 0xed && second > 0x9f) return 0;
  if (c === 0xf0 && second < 0x90) return 0;
  if (c === 0xf4 && second > 0x8f) return 0;
  return len;
}

/** Whether a name's bytes are UTF-8 (so a string holds them exactly). */
export function isUtf8(name: Buffer): boolean {
  for (let i = 0; i < name.length;) {
    const len = utf8Length(name, i);
    if (len === 0) return false;
    i += len;
  }
  return true;
}

/**
 * Why a relative path (UTF-8, `/` separators) cannot go into the archive as it is, or undefined.
 * The fix is the caller's: rename the file or list it in .hostingignore.
 */
export function nameProblem(rel: string): string | undefined {
  if (rel.includes("\\")) {
    return "has a backslash in its name, which a zip archive reads as a folder separator";
  }
  if (/^[A-Za-z]:/.test(rel)) {
    return "starts with a drive letter (like C:), which a zip archive reads as an absolute path";
  }
  return undefined;
}
