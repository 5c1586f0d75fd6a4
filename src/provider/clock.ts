import { setTimeout as wait } from "node:timers/promises";

/** Time as the provider's waits and polls see it. */
export interface Clock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

const realClock: Clock = { now: () => Date.now(), sleep: async (ms) => void (await wait(ms)) };
let current = realClock;

/** Real time, unless a test injected its own (setup waits, domain waits, the shared list). */
export const clock: Clock = {
  now: () => current.now(),
  sleep: (ms) => current.sleep(ms),
};

/** @internal For tests: waits run on `c`; undefined restores real time. */
export function setClock(c?: Clock): void {
  current = c ?? realClock;
}
