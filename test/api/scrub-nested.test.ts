import { makeScrubber, scrubError } from "../../src/api/scrub";

/*
 * Where a token hides in an error besides its message: the stack, plain objects the error carries
 * (undici puts `headers` there), and errors further down the `cause` chain. Every expected text is
 * written out as the user reads it, never built from the module's own constant.
 */

const TOKEN = "Zm9vYmFyYmF6cXV4.c2VjcmV0LXBheWxvYWQtZGF0YQ.U2lnbmF0dXJlLXBhcnQtOTk5";
const scrub = makeScrubber(TOKEN);

test("the redaction mark is the literal [redacted]", () => {
  expect(scrub(`token ${TOKEN} refused`)).toBe("token [redacted] refused");
  expect(scrub("Authorization: Bearer opaque-value")).toBe("Authorization: Bearer [redacted]");
});

test("message and stack of the error itself are rewritten", () => {
  const err = new Error(`invalid token ${TOKEN}`);
  scrubError(err, scrub);
  expect(err.message).toBe("invalid token [redacted]");
  expect(err.stack).toContain("invalid token [redacted]");
  expect(err.stack).not.toContain(TOKEN);
});

test("a stack already formatted (read before the scrub) is rewritten too", () => {
  const err = new Error(`invalid token ${TOKEN}`);
  expect(err.stack).toContain(TOKEN); // V8 formats the stack once, with the message of then
  scrubError(err, scrub);
  expect(err.stack).toContain("invalid token [redacted]");
  expect(err.stack).not.toContain(TOKEN);
});

test("plain objects the error carries (headers) are rewritten; other values are left as they are", () => {
  const err = Object.assign(new Error("request failed"), {
    headers: { authorization: `Bearer ${TOKEN}`, "x-request-id": "req-1", retries: 2 },
    body: { echoed: `signature ${TOKEN.split(".")[2]}` },
  });
  scrubError(err, scrub);
  expect(err.headers).toStrictEqual({
    authorization: "Bearer [redacted]",
    "x-request-id": "req-1",
    retries: 2,
  });
  expect(err.body).toStrictEqual({ echoed: "signature [redacted]" });
  expect(err.message).toBe("request failed");
});

test("a token nested in a cause's objects and deep in the cause chain is rewritten", () => {
  const root = Object.assign(new Error(`socket closed after Bearer ${TOKEN}`), {
    code: "UND_ERR_SOCKET",
    socket: { remote: "127.0.0.1", sent: `Authorization: Bearer ${TOKEN}` },
  });
  const middle = new Error(`fetch failed for ${TOKEN}`, { cause: root });
  const top = new Error("listing apps failed", { cause: middle });
  scrubError(top, scrub);
  expect(middle.message).toBe("fetch failed for [redacted]");
  expect(root.message).toBe("socket closed after Bearer [redacted]");
  expect(root.code).toBe("UND_ERR_SOCKET");
  expect(root.socket).toStrictEqual({
    remote: "127.0.0.1",
    sent: "Authorization: Bearer [redacted]",
  });
  expect(root.stack).not.toContain(TOKEN);
});

test("a cycle in the cause chain ends the walk", () => {
  const a = new Error(`a ${TOKEN}`);
  const b = new Error(`b ${TOKEN}`, { cause: a });
  (a as Error & { cause?: unknown }).cause = b;
  expect(scrubError(b, scrub)).toBe(b);
  expect([a.message, b.message]).toEqual(["a [redacted]", "b [redacted]"]);
});

test("the walk stops after 16 errors of a cause chain (it bounds the work a hostile chain costs)", () => {
  const chain: Error[] = [];
  let next: Error | undefined;
  for (let i = 19; i >= 0; i--) {
    next = new Error(`level ${i} ${TOKEN}`, next ? { cause: next } : undefined);
    chain.unshift(next);
  }
  scrubError(chain[0], scrub);
  const cleaned = chain.map((e) => !e.message.includes(TOKEN));
  expect(cleaned).toEqual([...Array(16).fill(true), ...Array(4).fill(false)]);
  expect(chain[15].message).toBe("level 15 [redacted]");
});

test("a frozen property of someone else's error does not stop the rest being rewritten", () => {
  const err = new Error(`first ${TOKEN}`);
  Object.defineProperty(err, "frozen", {
    value: `held ${TOKEN}`,
    enumerable: true,
    writable: false,
    configurable: false,
  });
  (err as Error & { detail?: string }).detail = `detail ${TOKEN}`;
  expect(() => scrubError(err, scrub)).not.toThrow();
  expect(err.message).toBe("first [redacted]");
  expect((err as Error & { detail?: string }).detail).toBe("detail [redacted]");
});

describe("parts of the token", () => {
  // Parts of 7, 8 and 9 characters: 8 is the shortest part that is redacted on its own.
  const token = "abcdefg.ABCDEFGH.123456789";
  const s = makeScrubber(token);

  // One test: the forms are built on the first scrub, and what a build leaves out is seen here.
  test("a part of 8 characters or more is redacted alone; a shorter one is ordinary text", () => {
    expect(s("part ABCDEFGH here")).toBe("part [redacted] here");
    expect(s("part 123456789 here")).toBe("part [redacted] here");
    // Shorter parts would redact common words. Not followed by a letter: matches ignore case and
    // line breaks, so "abcdefg h" would be the 8-character part "ABCDEFGH" broken by a space.
    expect(s("part abcdefg. here")).toBe("part abcdefg. here");
    expect(s("part ABCDEFG. here")).toBe("part ABCDEFG. here");
    // Nor its encodings: hex of "abcdefg".
    expect(s("hex 61626364656667 end")).toBe("hex 61626364656667 end");
  });

  test("an 8-character part is found in another case and broken by whitespace", () => {
    expect(s("part abcdefg here")).toBe("part [redacted]ere");
    expect(s("part abcd\nEFGH.")).toBe("part [redacted].");
  });

  test("the whole token is one redaction, not one per part", () => {
    expect(s(`got ${token}!`)).toBe("got [redacted]!");
  });
});

test("a part that holds another part is redacted whole, not leaving its tail", () => {
  const s = makeScrubber("abcdefgh.abcdefghXY.0123456789");
  expect(s("sig abcdefghXY end")).toBe("sig [redacted] end");
  // Two parts that overlap in the text: one redaction covering both.
  const t = makeScrubber("abcdefgh.efghijkl.0123456789");
  expect(t("sig abcdefghijkl end")).toBe("sig [redacted] end");
  // Two echoes side by side are two.
  expect(t("sig abcdefghabcdefgh end")).toBe("sig [redacted][redacted] end");
});

test("an empty token redacts nothing it should not", () => {
  const s = makeScrubber("");
  expect(s("app not found")).toBe("app not found");
});

test("Bearer values stop at quotes, commas, semicolons and angle brackets", () => {
  expect(scrub('auth="Bearer abc",next')).toBe('auth="Bearer [redacted]",next');
  expect(scrub("<Bearer abc>;x")).toBe("<Bearer [redacted]>;x");
  expect(scrub("bearer\tabc def")).toBe("Bearer [redacted] def");
  expect(scrub("NotBearer is a word")).toBe("NotBearer is a word");
});

test("a JWT-like value needs at least four characters after eyJ", () => {
  expect(scrub("eyJabc")).toBe("eyJabc");
  expect(scrub("x eyJabcd.ef-_.gh y")).toBe("x [redacted] y");
  expect(scrub("x eyJabcd.ef.gh.ij y")).toBe("x [redacted].ij y");
});

test("parts echoed in another order than the token's are each redacted", () => {
  const [first, , last] = TOKEN.split(".");
  expect(scrub(`sig ${last} then ${first} end`)).toBe("sig [redacted] then [redacted] end");
});

describe("errors an error holds besides its cause chain", () => {
  test("a cause that is a string (not enumerable) is rewritten", () => {
    const err = new Error("fetch failed", { cause: `Authorization: Bearer ${TOKEN}` });
    scrubError(err, scrub);
    expect(err.cause).toBe("Authorization: Bearer [redacted]");
  });

  test("the errors of an AggregateError are rewritten, and their causes", () => {
    const inner = new Error(`refused ${TOKEN}`, { cause: new Error(`root ${TOKEN}`) });
    const err = new AggregateError([new Error(`first ${TOKEN}`), inner], `all ${TOKEN}`);
    scrubError(err, scrub);
    expect(err.message).toBe("all [redacted]");
    expect(err.errors.map((e: Error) => e.message)).toStrictEqual([
      "first [redacted]",
      "refused [redacted]",
    ]);
    expect((inner.cause as Error).message).toBe("root [redacted]");
  });

  test("an error kept in a field is rewritten like a cause", () => {
    const original = new Error(`original ${TOKEN}`);
    const err = Object.assign(new Error("wrapped"), { original });
    scrubError(err, scrub);
    expect(original.message).toBe("original [redacted]");
    expect(original.stack).not.toContain(TOKEN);
  });

  test("a cause that is a plain object is rewritten, one level into it too", () => {
    const cause = {
      code: "E_AUTH",
      detail: `token ${TOKEN}`,
      request: { auth: `Bearer ${TOKEN}` },
    };
    const err = new Error("failed", { cause });
    scrubError(err, scrub);
    expect(cause).toStrictEqual({
      code: "E_AUTH",
      detail: "token [redacted]",
      request: { auth: "Bearer [redacted]" },
    });
  });

  test("objects two levels inside an error are another library's state and left alone", () => {
    // E.g. a request's options, which a retry sends again: only what an error carries is rewritten.
    const options = { headers: { authorization: `Bearer ${TOKEN}` } };
    const err = Object.assign(new Error(`failed ${TOKEN}`), { request: { options } });
    scrubError(err, scrub);
    expect(err.message).toBe("failed [redacted]");
    expect(options.headers.authorization).toBe(`Bearer ${TOKEN}`);
  });

  test("getters are not called, and values that are not strings stay as they are", () => {
    const err = new Error(`bad ${TOKEN}`, { cause: null });
    Object.defineProperty(err, "expensive", {
      enumerable: true,
      get() {
        throw new Error("getter called");
      },
    });
    Object.assign(err, { status: 401, ok: false, nothing: null, list: [`x ${TOKEN}`, 3] });
    expect(() => scrubError(err, scrub)).not.toThrow();
    expect(err.message).toBe("bad [redacted]");
    expect(err).toMatchObject({ status: 401, ok: false, nothing: null, list: ["x [redacted]", 3] });
    expect(err.cause).toBeNull();
  });

  test("something thrown that is not an object passes through as it is", () => {
    expect(scrubError(`thrown ${TOKEN}`, scrub)).toBe(`thrown ${TOKEN}`);
    expect(scrubError(null, scrub)).toBeNull();
    expect(scrubError(undefined, scrub)).toBeUndefined();
  });

  test("an AggregateError of many errors is bounded like a long chain", () => {
    const errors = Array.from({ length: 20 }, (_, i) => new Error(`e${i} ${TOKEN}`));
    scrubError(new AggregateError(errors, "many"), scrub);
    // The aggregate itself is the first of 16.
    expect(errors.map((e) => !e.message.includes(TOKEN))).toEqual([
      ...Array(15).fill(true),
      ...Array(5).fill(false),
    ]);
  });
});
