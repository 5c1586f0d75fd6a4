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
