/*
 * Runs tasks that share a key at most `slots` at a time (one, by default: one after another),
 * in the order they came, within this process (the provider host runs every resource of a
 * deployment in one process); tasks of different keys run in parallel.
 */

const queues = new Map<string, { busy: number; waiting: Array<() => void> }>();

export async function withKeyLock<T>(key: string, task: () => Promise<T>, slots = 1): Promise<T> {
  let q = queues.get(key);
  if (!q) queues.set(key, (q = { busy: 0, waiting: [] }));
  if (q.busy < slots) q.busy++;
  else await new Promise<void>((r) => q.waiting.push(r));
  try {
    return await task();
  } finally {
    // A finished task hands its slot straight to the next waiter.
    const next = q.waiting.shift();
    if (next) next();
    else if (--q.busy === 0) queues.delete(key);
  }
}
