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

export function camelKey(key: string): string {
  return key.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
}

export function camelize<T>(value: T): Camelize<T> {
  if (Array.isArray(value)) return value.map((v) => camelize(v)) as Camelize<T>;
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[camelKey(k)] = camelize(v);
    return out as Camelize<T>;
  }
  return value as Camelize<T>;
}
