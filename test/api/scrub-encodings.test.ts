import { HostingClient } from "../../src/api";
import { makeScrubber, REDACTED } from "../../src/api/scrub";
import { fixtureServer, json } from "../helpers/fixture-server";

/*
 * A server may echo the token back not as sent: base64-encoded (standard or URL-safe, alone or
 * inside an encoded header or JSON blob), with its case swapped, hex-encoded, or broken by line
 * breaks and spaces. None of it may reach an error message.
 */

const TOKEN =
  "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1c2VyLTQyIiwiaWF0IjoxNzAwMDAwMDAwfQ.q9Xz-Lm3_Rk8PwT2vYc5NbHd7JfGs1AeUoKi4WnMxQy";
const scrub = makeScrubber(TOKEN);
const b64 = (s: string) => Buffer.from(s).toString("base64");
const b64url = (s: string) => Buffer.from(s).toString("base64url");
const swapCase = (s: string) =>
  [...s].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join("");
/** Every run of 8 or more token-like characters left: a piece of a secret, or a whole one. */
const leftovers = (text: string, secret: string) =>
  (text.match(/[A-Za-z0-9+/_=-]{8,}/g) ?? []).filter((run) =>
    secret.toLowerCase().includes(run.toLowerCase()),
  );

test.each([
  ["base64 of the token", b64(TOKEN)],
  ["URL-safe base64 of the token", b64url(TOKEN)],
  ["base64 of the Bearer header", b64(`Bearer ${TOKEN}`)],
  ["URL-safe base64 of the Authorization header", b64url(`Authorization: Bearer ${TOKEN}`)],
  ["base64 of a JSON blob holding it", b64(`[{"authorization":"Bearer ${TOKEN}"}]`)],
  [
    "base64, then cut in 76-character MIME lines",
    b64(`Bearer ${TOKEN}`).replace(/.{76}/g, "$&\r\n"),
  ],
  ["hex of the token", Buffer.from(TOKEN).toString("hex")],
  ["hex in capitals", Buffer.from(TOKEN).toString("hex").toUpperCase()],
])("%s is redacted", (_label, echoed) => {
  const out = scrub(`you sent ${echoed} which is wrong`);
  expect(out).toContain(REDACTED);
  expect(leftovers(out, echoed.replace(/\s/g, ""))).toEqual([]);
  expect(out).toMatch(/^you sent .*which is wrong$/s);
});

test.each([
  ["its case swapped", swapCase(TOKEN)],
  ["all capitals", TOKEN.toUpperCase()],
  ["a line break inside", `${TOKEN.slice(0, 40)}\n${TOKEN.slice(40)}`],
  ["CRLF and indentation inside", `${TOKEN.slice(0, 20)}\r\n    ${TOKEN.slice(20)}`],
  ["a JSON-escaped line break inside", `${TOKEN.slice(0, 50)}\\n${TOKEN.slice(50)}`],
  ["spaces every 10 characters", TOKEN.replace(/.{10}/g, "$& ")],
  ["the base64, case swapped", swapCase(b64(TOKEN))],
])("the token with %s is redacted", (_label, echoed) => {
  const out = scrub(`token=${echoed};`);
  expect(out).toBe(`token=${REDACTED};`);
});

test("plain text that merely shares letters with the token passes unchanged", () => {
  for (const text of [
    "app 6f1c4a52-2f0e-4c55-9d5a-0e5c1f9b7a11 not found",
    "runtime node 0.10 is not available",
    "hosting.json: ram: Expected number, received string",
    "ZXhhbXBsZQ== is base64 of something else",
  ]) {
    expect(scrub(text)).toBe(text);
  }
});

test("an error reply echoing the token encoded, or spelled with JSON escapes, is clean", async () => {
  const escaped = [...TOKEN].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
  const fx = await fixtureServer([
    (_req, res) => {
      res.writeHead(400, { "content-type": "application/json" });
      res.end(
        `{"error":"bad header ${b64(`Bearer ${TOKEN}`)} / ${swapCase(TOKEN)} / ${escaped.join("")}"}`,
      );
    },
    json(400, { error: `split ${TOKEN.slice(0, 30)}\n${TOKEN.slice(30)}` }),
  ]);
  const client = new HostingClient({ apiUrl: fx.url, token: TOKEN, maxRetries: 0 });
  try {
    for (let i = 0; i < 2; i++) {
      const err = (await client.listApps().catch((e: unknown) => e)) as Error & {
        bodyMessage: string;
      };
      expect(err.message).toContain(REDACTED);
      for (const text of [err.message, err.bodyMessage, String(err.stack)]) {
        expect(leftovers(text, TOKEN)).toEqual([]);
        expect(leftovers(text, b64(`Bearer ${TOKEN}`))).toEqual([]);
        expect(text.toLowerCase()).not.toContain(TOKEN.slice(-20).toLowerCase());
      }
    }
  } finally {
    await client.close();
    await fx.close();
  }
});

test("a megabytes-long error text is cut to 4 KiB, and a token across the cut is still redacted", async () => {
  const pad = "x ".repeat(2040); // 4080 characters
  const huge = `${pad}${b64(`Bearer ${TOKEN}`)} ${"y".repeat(5_000_000)}`;
  const fx = await fixtureServer([json(400, { error: huge })]);
  const client = new HostingClient({ apiUrl: fx.url, token: TOKEN, maxRetries: 0 });
  try {
    const err = (await client.listApps().catch((e: unknown) => e)) as Error & {
      bodyMessage: string;
    };
    expect(err.bodyMessage.length).toBeLessThanOrEqual(4097);
    expect(err.bodyMessage.startsWith(`${pad}${REDACTED}`)).toBe(true);
    expect(leftovers(err.message, b64(`Bearer ${TOKEN}`))).toEqual([]);
  } finally {
    await client.close();
    await fx.close();
  }
});

describe("a token with no parts of its own (only its whole encodings can match)", () => {
  // Each test a token of its own: the forms are built on a token's first scrub, so each test
  // sees the forms it checks being built.
  const tokenOf = (name: string) => `q9Xz-Lm3_Rk8PwT2vYc5NbHd7JfGs1AeUoKi4WnMxQy-${name}`;

  // Before the token 0, 1 or 2 bytes (each base64 alignment), after it text of its own.
  test.each([
    ["", '"}'],
    ["x", '"}'],
    ["xy", '"}'],
    ["Bearer ", ""],
    ["Authorization: Bearer ", "!"],
  ])("its base64 after %j and before %j is redacted, whole blob", (before, after) => {
    const token = tokenOf(`b64-${before.length}`);
    const s = makeScrubber(token);
    for (const enc of [b64, b64url]) {
      const blob = enc(`${before}${token}${after}`);
      expect(s(`sent ${blob} end`)).toBe("sent [redacted] end");
      expect(s(blob)).toBe("[redacted]");
    }
  });

  test("its hex, in any case, after text of any length, is redacted", () => {
    const token = tokenOf("hex");
    const s = makeScrubber(token);
    for (const before of ["", "x", "xy"]) {
      const hex = Buffer.from(`${before}${token}!`).toString("hex");
      expect(s(`sent ${hex} end`)).toBe("sent [redacted] end");
      expect(s(`sent ${hex.toUpperCase()} end`)).toBe("sent [redacted] end");
    }
  });

  test("the base64 of text that differs from it by one character passes unchanged", () => {
    const token = tokenOf("near");
    const s = makeScrubber(token);
    const other = `${token.slice(0, 21)}${token[21] === "a" ? "b" : "a"}${token.slice(22)}`;
    for (const before of ["", "x", "xy"]) {
      const text = `sent ${b64(`${before}${other}`)} end`;
      expect(s(text)).toBe(text);
    }
  });

  test("a blob's line breaks and padding go with it; the text's own line breaks stay", () => {
    const token = tokenOf("lines");
    const s = makeScrubber(token);
    const blob = b64(`Bearer ${token}`); // ends in "="
    expect(blob).toMatch(/=$/);
    expect(s(`a=${blob}\r\n`)).toBe("a=[redacted]\r\n");
    expect(s(`\r\n${blob}\n`)).toBe("\r\n[redacted]\n");
    expect(s(`header: ${blob.slice(0, 30)}\r\n${blob.slice(30)}; next`)).toBe(
      "header: [redacted]; next",
    );
  });

  test("the token in the other base64 alphabet (+ and / for - and _) is redacted", () => {
    const token = tokenOf("alphabet_x");
    const s = makeScrubber(token);
    const standard = token.replace(/-/g, "+").replace(/_/g, "/");
    expect(standard).not.toBe(token);
    expect(s(`token=${standard};`)).toBe("token=[redacted];");
  });

  test("the base64 of a token whose encoding has + and / is redacted in either alphabet", () => {
    // "~" and "?" as the third byte of a group encode as "+" and "/" (URL-safe: "-" and "_").
    const token = "ab~cd?ef~gh?ij~kl?";
    const s = makeScrubber(token);
    expect(b64(token)).toMatch(/\+.*\//);
    for (const blob of [b64(token), b64url(token)]) {
      expect(s(`sent ${blob} end`)).toBe("sent [redacted] end");
    }
  });
});

describe("a short token", () => {
  test("its encodings of 8 characters or more are redacted", () => {
    // base64 of 6 bytes is 8 characters; hex of 4 bytes is 8.
    expect(makeScrubber("s3cr3t")(`x ${b64("s3cr3t")} y`)).toBe("x [redacted] y");
    expect(makeScrubber("k3y!")(`x ${Buffer.from("k3y!").toString("hex")} y`)).toBe(
      "x [redacted] y",
    );
  });

  test("its encodings shorter than 8 characters are too common to redact", () => {
    // base64 of "abc" is YWJj, hex 616263; the token itself is still redacted.
    const s = makeScrubber("abc");
    expect(s("YWJj and 616263 stay, abc goes")).toBe("YWJj and 616263 stay, [redacted] goes");
  });
});
