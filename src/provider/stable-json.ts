/** JSON with object keys sorted at every depth: equal values give equal text. */
export function stableJson(value: unknown, indent?: number): string {
  return JSON.stringify(sortKeys(value), null, indent);
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[k];
      if (v !== undefined) out[k] = sortKeys(v);
    }
    return out;
  }
  return value;
}

export function sameValue(a: unknown, b: unknown): boolean {
  // Two strings (most compared values) are the same text exactly when they are equal.
  if (typeof a === "string" && typeof b === "string") return a === b;
  return stableJson(a) === stableJson(b);
}
