type Props = Record<string, unknown>;
/** Strips secret wrappers; returns plain values and the top-level keys that held a secret. */
export function unwrap(props: Props): { plain: Props; secretKeys: Set<string> };
export function wrap(props: Props, secretKeys: Iterable<string>): Props;
export function hasUnknown(v: unknown): boolean;
/** Equality of property bags regardless of key order. */
export function sameProps(a: unknown, b: unknown): boolean;
