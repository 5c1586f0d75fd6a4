/*
 * Loading on first use. A program that only declares resources needs neither the client nor
 * undici, zod or form-data, so the package root hands out stand-ins that load the real module
 * the first time they are called (or constructed).
 */

/** `load` once, and remember it. */
export function once<M>(load: () => M): () => M {
  let m: M | undefined;
  return () => (m ??= load());
}
