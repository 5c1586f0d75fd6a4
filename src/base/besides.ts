/**
 * The rules written, then those of `derived` not written, in that order: a rule written (with its
 * limits) takes precedence over one derived for the same key, and a schema reports its issues in
 * the order of the rules written.
 */
export function besides<W extends object, D extends object>(
  written: W,
  derived: D,
): W & Omit<D, keyof W> {
  const rest = Object.entries(derived).filter(([k]) => !Object.hasOwn(written, k));
  return { ...written, ...Object.fromEntries(rest) } as W & Omit<D, keyof W>;
}
