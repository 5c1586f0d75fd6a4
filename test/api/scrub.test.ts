import { makeScrubber, REDACTED } from "../../src/api/scrub";

const TOKEN = "Zm9vYmFyYmF6cXV4.c2VjcmV0LXBheWxvYWQtZGF0YQ.U2lnbmF0dXJlLXBhcnQtOTk5";
const scrub = makeScrubber(TOKEN);

test("ordinary error texts pass unchanged", () => {
  for (const text of [
    "app 6f1c4a52-2f0e-4c55-9d5a-0e5c1f9b7a11 not found",
    "custom domain shop.pointed.test attached",
    "Authorization header must be: Bearer <token>",
    "sha256 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08 does not match",
    "minutes must be a whole number from 1 to 43200",
    "<html><body>502 Bad Gateway</body></html>",
  ]) {
    expect(scrub(text)).toBe(text);
  }
});

test("the token, its parts, Bearer values and JWT shapes are redacted", () => {
  expect(scrub(`got ${TOKEN}!`)).toBe(`got ${REDACTED}!`);
  expect(scrub(`sig=${TOKEN.split(".")[2]}`)).toBe(`sig=${REDACTED}`);
  expect(scrub("Authorization: Bearer abc.def.ghi")).toBe(`Authorization: Bearer ${REDACTED}`);
  expect(scrub('"bearer  someOpaqueValue"')).toBe(`"Bearer ${REDACTED}"`);
  expect(scrub("other eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.sig end")).toBe(`other ${REDACTED} end`);
  expect(scrub("cut eyJhbGciOiJIUzI1Ni")).toBe(`cut ${REDACTED}`);
});
