import { describeOwner, OWNER_KEY, ownerOf, recordedOwner } from "../../src/connection/owner";

/*
 * Whose account a resource records (`__owner`): a digest of the token's issuer and subject when
 * it is a JWT that names them, else of the token itself; never the token. Pinned as literals: a
 * release that recorded another digest for the same account would show every resource of every
 * stack as moved to another account (a replace).
 */

const URL = "https://api.example.test";
const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString("base64url");
const jwt = (payload: unknown) => `${b64({ alg: "HS256" })}.${b64(payload)}.sig`;

test("a JWT's issuer and subject decide the account, pinned across releases", () => {
  expect(ownerOf(URL, jwt({ iss: "hosting", sub: "user-1", exp: 1 }))).toEqual({
    account: "sub-5d036c3976dc59da53725902",
    service: URL,
  });
});

test("a rotated token of the same account is the same owner; another subject or issuer is not", () => {
  const first = ownerOf(URL, jwt({ iss: "hosting", sub: "user-1", exp: 1 }));
  expect(ownerOf(URL, ` ${jwt({ iss: "hosting", sub: "user-1", exp: 2, iat: 9 })}\n`)).toEqual(
    first,
  );
  expect(ownerOf(URL, jwt({ iss: "hosting", sub: "user-2" })).account).not.toBe(first.account);
  expect(ownerOf(URL, jwt({ iss: "other", sub: "user-1" })).account).not.toBe(first.account);
  expect(ownerOf(URL, jwt({ sub: "user-1" })).account).not.toBe(first.account);
});

test("a token that names no subject is its own account, by digest, never by its text", () => {
  const plain = ownerOf(URL, "plain-token");
  expect(plain).toEqual({ account: "token-9673412eb9a5767240de886d", service: URL });
  expect(ownerOf(URL, "  plain-token ")).toEqual(plain);
  expect(JSON.stringify(plain)).not.toContain("plain-token");
  for (const token of [
    jwt({ iss: "hosting" }), // no subject
    jwt({ iss: "hosting", sub: "" }),
    jwt({ iss: "hosting", sub: 7 }),
    jwt(["user-1"]),
    jwt(null),
    `${b64({})}.not base64!.sig`,
    `${b64({})}.${Buffer.from("{not json").toString("base64url")}.sig`,
    `a.${b64({ sub: "user-1" })}`, // two parts
  ]) {
    const o = ownerOf(URL, token);
    expect(o.account).toMatch(/^token-[0-9a-f]{24}$/);
    expect(JSON.stringify(o)).not.toContain(token.trim());
  }
});

test("what state holds is read back only when it is sound", () => {
  const o = ownerOf(URL, jwt({ iss: "hosting", sub: "user-1" }));
  expect(recordedOwner({ [OWNER_KEY]: o })).toEqual(o);
  expect(recordedOwner({ [OWNER_KEY]: { account: o.account } })).toEqual({
    account: o.account,
    service: "",
  });
  for (const bad of [
    undefined,
    null,
    "sub-5d036c3976dc59da53725902",
    { account: "sub-5d036c3976dc" },
    { account: "acct-5d036c3976dc59da53725902" },
    { account: `x${o.account}` },
    { account: `${o.account}0` },
    { account: 7 },
  ]) {
    expect(recordedOwner({ [OWNER_KEY]: bad })).toBeUndefined();
  }
});

test("an owner is named by kind, a short digest and its service", () => {
  expect(describeOwner(ownerOf(URL, jwt({ iss: "hosting", sub: "user-1" })))).toBe(
    `account 5d036c3976dc on ${URL}`,
  );
  expect(describeOwner(ownerOf("", "plain-token"))).toBe("token 9673412eb9a5");
});
