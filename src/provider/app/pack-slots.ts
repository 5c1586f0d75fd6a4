/*
 * Packing is CPU work on the provider's one thread (zip, deflate, hashing). Hundreds of creates
 * packing at once all finish late, together, and slow every reply the thread reads meanwhile;
 * a few at a time hand the first archives to their uploads at once and the rest in order.
 */
const SLOTS = 4;
let busy = 0;
const waiting: Array<() => void> = [];

/** Runs `task` when one of the few packing slots is free. */
export async function withPackSlot<T>(task: () => Promise<T>): Promise<T> {
  if (busy >= SLOTS) await new Promise<void>((r) => waiting.push(r));
  else busy++;
  try {
    return await task();
  } finally {
    const next = waiting.shift();
    if (next) next();
    else busy--;
  }
}
