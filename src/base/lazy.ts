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

/** A function that loads its module on the first call and forwards to `name` in it. */
export function lazyFunction<M, K extends keyof M>(load: () => M, name: K): M[K] {
  return ((...args: unknown[]) => (load()[name] as (...a: unknown[]) => unknown)(...args)) as M[K];
}

/**
 * A class that loads its module when first constructed or inspected. `new`, `instanceof` and
 * static members reach the real class.
 */
export function lazyClass<M, K extends keyof M>(load: () => M, name: K): M[K] {
  const real = () => load()[name] as unknown as new (...a: unknown[]) => object;
  const stand: object = new Proxy(function () {}, {
    construct: (_t, args, newTarget) =>
      Reflect.construct(real(), args, newTarget === stand ? real() : newTarget),
    get: (_t, key) => Reflect.get(real(), key),
    has: (_t, key) => Reflect.has(real(), key),
  });
  return stand as M[K];
}
