/*
 * Compile-time checks that a zod schema (internal) and a public interface describe the same
 * shape, so the interface a user sees cannot drift from what the client validates.
 */

/** T without index signatures, at every depth: loose schemas add one; interfaces list fields. */
export type Closed<T> =
  T extends ReadonlyArray<infer E>
    ? Closed<E>[]
    : T extends object
      ? { [K in keyof T as string extends K ? never : K]: Closed<T[K]> }
      : T;

/** true when A and B are the same type (not merely assignable one way). */
export type Equal<A, B> =
  (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

/** true when A and B have the same fields, ignoring index signatures. */
export type SameShape<A, B> = Equal<Closed<A>, Closed<B>>;

/** Fails to compile unless its argument is `true`: `assertType<SameShape<A, B>>(true)`. */
export function assertType<T extends true>(ok: T): T {
  return ok;
}

/*
 * Checks whose failure says what to write where: the compiler prints the parameter type it
 * wanted, and these make that type a sentence ("add region to AppSummary (src/api/types.ts)").
 */

/** `true` when `Have` has every key of `Want`; otherwise the keys to add to `Where`. */
export type Covers<Have, Want, Where extends string> = [Exclude<keyof Want, keyof Have>] extends [
  never,
]
  ? true
  : `add ${Exclude<keyof Want, keyof Have> & string} to ${Where}`;

/** `true` when `Have` and `Want` are the same names; otherwise what to add to or remove from `Where`. */
export type SameNames<Have, Want, Where extends string> = [Exclude<Want, Have>] extends [never]
  ? [Exclude<Have, Want>] extends [never]
    ? true
    : `remove ${Exclude<Have, Want> & string} from ${Where}, or declare it`
  : `add ${Exclude<Want, Have> & string} to ${Where}`;

/** `true` when `Have` has the shape of `Want` (see {@link SameShape}); otherwise what differs in `Where`. */
export type Matches<Have, Want, Where extends string> =
  SameShape<Have, Want> extends true
    ? true
    : SameNames<keyof Closed<Have>, keyof Closed<Want>, Where> extends infer Named
      ? Named extends true
        ? `make the types in ${Where} match`
        : Named
      : never;
