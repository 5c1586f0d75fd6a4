/* snake_case wire shapes → the camelCase a Pulumi user sees, in types and at run time. */

export type CamelCase<S extends string> = S extends `${infer H}_${infer T}`
  ? `${H}${Capitalize<CamelCase<T>>}`
  : S;

export type Camelize<T> =
  T extends ReadonlyArray<infer E>
    ? Camelize<E>[]
    : T extends object
      ? { [K in keyof T as K extends string ? CamelCase<K> : K]: Camelize<T[K]> }
      : T;

// The API's field names repeat on every object: convert each once (a refresh converts thousands).
const KEYS_REMEMBERED = 2000;
const camelKeys = new Map<string, string>();

export function camelKey(key: string): string {
  let out = camelKeys.get(key);
  if (out === undefined) {
    out = key.includes("_") ? key.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase()) : key;
    if (camelKeys.size < KEYS_REMEMBERED) camelKeys.set(key, out);
  }
  return out;
}

/*
 * The documented wire shapes are a few levels deep. Anything deeper is a field no version of the
 * spec has: it is left out rather than walked (a reply nested 20,000 deep would overflow the
 * stack).
 */
const MAX_DEPTH = 32;

export function camelize<T>(value: T, depth = 0): Camelize<T> {
  if (value === null || typeof value !== "object") return value as Camelize<T>;
  if (depth >= MAX_DEPTH) return undefined as Camelize<T>;
  if (Array.isArray(value)) {
    // Number series (usage metrics) hold thousands of plain values: nothing to convert.
    if (!value.some((v) => v !== null && typeof v === "object")) return value as Camelize<T>;
    return value.map((v) => camelize(v, depth + 1)) as Camelize<T>;
  }
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(value)) {
    const v = camelize((value as Record<string, unknown>)[k], depth + 1);
    if (v !== undefined) out[camelKey(k)] = v;
  }
  return out as Camelize<T>;
}
