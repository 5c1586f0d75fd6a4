/**
 * Every form a token could be stored in: raw, percent-encoded, hex, and base64 in either
 * alphabet at each of the three byte alignments (so it is found inside a larger encoded blob).
 */
export function tokenForms(token: string): string[] {
  const bytes = Buffer.from(token);
  const b64 = [0, 1, 2].map((k) => {
    const enc = Buffer.concat([Buffer.alloc(k), bytes]).toString("base64");
    return enc.slice(Math.ceil((8 * k) / 6), Math.floor((8 * (k + bytes.length)) / 6));
  });
  const url = b64.map((s) => s.replace(/\+/g, "-").replace(/\//g, "_"));
  return [token, encodeURIComponent(token), bytes.toString("hex"), ...b64, ...url];
}

/** The forms of `token` found in `text` (none is the only good answer). */
export const tokenFormsIn = (text: string, token: string): string[] =>
  tokenForms(token).filter((f) => text.includes(f));
