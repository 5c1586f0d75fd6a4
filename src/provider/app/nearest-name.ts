import { once } from "../../base";

/*
 * The "did you mean" of a path that names nothing (a source, an entrypoint): the existing name
 * nearest the one given, when it is near enough to be a misspelling of it.
 */

/** Loaded only for a name that is missing: declaring resources loads no more than it must. */
const levenshtein = once(
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  () => require("fastest-levenshtein") as typeof import("fastest-levenshtein"),
);

/** The name in `names` nearest `want`, within a third of its length (at least 2 edits). */
export function nearestName(want: string, names: readonly string[]): string | undefined {
  if (names.length === 0) return undefined;
  const { closest, distance } = levenshtein();
  const best = closest(want, names as string[]);
  const limit = Math.max(2, Math.floor(want.length / 3));
  return distance(want, best) <= limit ? best : undefined;
}
