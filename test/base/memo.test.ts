import { boundedMemo } from "../../src/base";

/*
 * What is worked out per token (the account it acts for, its scrubber) is worked out once, and
 * what is remembered stays bounded however many tokens a caller passes.
 */

test("each key is worked out once and answered the same after", () => {
  const made: string[] = [];
  const of = boundedMemo((key) => {
    made.push(key);
    return { key };
  });
  const first = of("a");
  expect([of("a"), of("b"), of("a")]).toEqual([first, { key: "b" }, first]);
  expect(of("a")).toBe(first);
  expect(made).toEqual(["a", "b"]);
});

test("past its cap it forgets, and works a key out again when asked", () => {
  const made: string[] = [];
  const of = boundedMemo((key) => made.push(key), 3);
  for (const key of ["a", "b", "c", "a"]) of(key);
  expect(made).toEqual(["a", "b", "c"]);
  of("d"); // the fourth key: what was known is dropped
  of("a");
  expect(made).toEqual(["a", "b", "c", "d", "a"]);
});
