import { makeScrubber } from "../../src/api/scrub";

/*
 * A server may break an echoed token with whitespace or JSON escapes of it, or hand it back in
 * another case inside text that is not ASCII. Each kind of break is tried alone, and the output is
 * compared with the whole text the user reads.
 */

// No dots: only the token as a whole can match, so a break that is not seen leaves it all.
const TOKEN = "q9Xz-Lm3_Rk8PwT2vYc5NbHd7JfGs1AeUoKi4WnMxQy";
const scrub = makeScrubber(TOKEN);
const broken = (br: string) => `${TOKEN.slice(0, 20)}${br}${TOKEN.slice(20)}`;

test.each([
  ["a space", " "],
  ["a tab", "\t"],
  ["a line feed", "\n"],
  ["a vertical tab", "\v"],
  ["a form feed", "\f"],
  ["a carriage return", "\r"],
  ["a no-break space", "\u00a0"],
  ["a line separator", "\u2028"],
  ["a paragraph separator", "\u2029"],
  ["JSON's \\n", "\\n"],
  ["JSON's \\r", "\\r"],
  ["JSON's \\t", "\\t"],
  ["JSON's \\b", "\\b"],
  ["JSON's \\f", "\\f"],
  ["JSON's \\u0009", "\\u0009"],
  ["JSON's \\u000A", "\\u000A"],
  ["JSON's \\u000d", "\\u000d"],
  ["JSON's \\u0020", "\\u0020"],
  ["JSON's \\u00a0", "\\u00a0"],
  ["JSON's \\u2028", "\\u2028"],
  ["JSON's \\u2029", "\\u2029"],
  ["several of them in a row", " \\n\r\n\t "],
])("the token broken by %s is redacted", (_label, br) => {
  expect(scrub(`token=${broken(br)};`)).toBe("token=[redacted];");
});

test.each([
  ["a backspace", "\b"],
  ["a shift-out character", "\u000e"],
  ["a dot", "."],
  ["JSON's \\u0041 (a letter)", "\\u0041"],
  ["JSON's \\u000e", "\\u000e"],
  ["JSON's \\u0008", "\\u0008"],
  ["JSON's \\u2027", "\\u2027"],
  ["a backslash before another letter", "\\x"],
  ["a lone backslash", "\\"],
])("the token broken by %s is not the token (it passes unchanged)", (_label, br) => {
  const text = `token=${broken(br)};`;
  expect(scrub(text)).toBe(text);
});

test("breaks around the token are the text's own and stay", () => {
  expect(scrub(TOKEN)).toBe("[redacted]");
  expect(scrub(`\n${TOKEN}\n`)).toBe("\n[redacted]\n");
  expect(scrub(`a \\n${TOKEN}\\n b`)).toBe("a \\n[redacted]\\n b");
  expect(scrub(`${TOKEN} ${TOKEN}`)).toBe("[redacted] [redacted]");
});

test("a break right after its first or right before its last character is still inside it", () => {
  expect(scrub(`(${TOKEN[0]}\n${TOKEN.slice(1)})`)).toBe("([redacted])");
  expect(scrub(`(${TOKEN.slice(0, -1)}\n${TOKEN.slice(-1)})`)).toBe("([redacted])");
  expect(scrub(`(${TOKEN.slice(0, -1)} \\n ${TOKEN.slice(-1)}) x`)).toBe("([redacted]) x");
  // Breaks every few characters, of every length.
  const spread = [...TOKEN].map((c, i) => c + ["", " ", "\\n", "\r\n", "\\u0020"][i % 5]).join("");
  expect(scrub(`<${spread}>`)).toBe("<[redacted]\\n>");
});

test("the token in another case is found in text that is not ASCII", () => {
  // Both edges of A-Z, and the base64url `-` and `_`, in text that takes the slow path.
  expect(scrub(`café ${TOKEN.toUpperCase()} déjà`)).toBe("café [redacted] déjà");
  expect(scrub(`café ${TOKEN.toLowerCase()} 🚫`)).toBe("café [redacted] 🚫");
  expect(scrub(`ÅZ ${TOKEN} ZA`)).toBe("ÅZ [redacted] ZA");
});

test("letters whose lower case is longer do not shift the redaction", () => {
  // "İ".toLowerCase() is two characters: positions are kept one for one.
  expect(scrub(`İİ ${TOKEN.toUpperCase()} end`)).toBe("İİ [redacted] end");
});

test("a long text that is not ASCII is scrubbed whole, token near its end", () => {
  const pad = "é".repeat(20_000);
  expect(scrub(`${pad} ${TOKEN} ${pad}`)).toBe(`${pad} [redacted] ${pad}`);
});

test("a token that is not ASCII is redacted where it appears as sent", () => {
  const s = makeScrubber("ÄÖÜßÆØÅÇÉÈ");
  expect(s("key ÄÖÜßÆØÅÇÉÈ refused")).toBe("key [redacted] refused");
  expect(s("key ÄÖÜßÆØÅÇÉ\nÈ refused")).toBe("key [redacted] refused");
});
