/*
 * Runs tasks that share a key one after another within this process (the provider host runs
 * every resource of a deployment in one process), and tasks of different keys in parallel.
 */

const tails = new Map<string, Promise<void>>();

export async function withKeyLock<T>(key: string, task: () => Promise<T>): Promise<T> {
  const before = tails.get(key) ?? Promise.resolve();
  let release: () => void = () => undefined;
  const mine = new Promise<void>((r) => (release = r));
  const tail = before.then(() => mine);
  tails.set(key, tail);
  await before;
  try {
    return await task();
  } finally {
    release();
    if (tails.get(key) === tail) tails.delete(key);
  }
}
