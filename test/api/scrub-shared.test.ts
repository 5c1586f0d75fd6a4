import type { makeScrubber as MakeScrubber } from "../../src/api/scrub";

/*
 * Every client of one token shares its scrubber, whose forms are built once; a process that mints
 * many tokens does not keep a scrubber for each of them for ever.
 */

const token = (i: number) => `eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1c2VyLSR7aX0ifQ.sig-${i}-0123456789`;

/** The module as a new process sees it: no token seen yet (each test stands alone). */
async function fresh(): Promise<typeof MakeScrubber> {
  let made: typeof MakeScrubber | undefined;
  await jest.isolateModulesAsync(async () => {
    made = (await import("../../src/api/scrub")).makeScrubber;
  });
  if (!made) throw new Error("module not loaded");
  return made;
}

test("clients of the same token share one scrubber; another token gets its own", async () => {
  const makeScrubber = await fresh();
  const a = makeScrubber(token(0));
  expect(makeScrubber(token(0))).toBe(a);
  const b = makeScrubber(token(1));
  expect(b).not.toBe(a);
  expect(b(`x ${token(1)} y`)).toBe("x [redacted] y");
  expect(a(`x ${token(0)} y`)).toBe("x [redacted] y");
});

test("at most 64 tokens are kept: the 65th starts afresh, and every scrubber still works", async () => {
  const makeScrubber = await fresh();
  const first = makeScrubber(token(0));
  for (let i = 1; i < 64; i++) makeScrubber(token(i));
  expect(makeScrubber(token(0))).toBe(first); // 64 held, none dropped yet
  makeScrubber(token(64));
  const again = makeScrubber(token(0));
  expect(again).not.toBe(first);
  expect(again(`x ${token(0)} y`)).toBe("x [redacted] y");
  expect(first(`x ${token(0)} y`)).toBe("x [redacted] y");
});
