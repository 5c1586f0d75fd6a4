/**
 * `make(key)` worked out once per key and remembered. For a handful of keys per process (tokens):
 * past `cap` the memory is dropped whole, so a caller minting many keys cannot grow it unbounded.
 * An undefined value is not remembered (it is worked out again on every call).
 */
export function boundedMemo<V, K extends string | number = string>(
  make: (key: K) => V,
  cap = 64,
): (key: K) => V {
  const known = new Map<K, V>();
  return (key) => {
    let value = known.get(key);
    if (value === undefined) {
      value = make(key);
      if (known.size >= cap) known.clear();
      known.set(key, value);
    }
    return value;
  };
}
