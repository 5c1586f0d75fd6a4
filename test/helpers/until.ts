import { setTimeout as tick } from "node:timers/promises";

/** Waits until `ready()` holds, looking every few ms; past `deadlineMs` fails naming `what`. */
export async function until(what: string, ready: () => boolean, deadlineMs = 30_000) {
  const giveUpAt = Date.now() + deadlineMs;
  while (!ready()) {
    if (Date.now() > giveUpAt)
      throw new Error(`gave up after ${deadlineMs} ms waiting for ${what}`);
    await tick(5);
  }
}
