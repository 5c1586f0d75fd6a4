import { realClock, sleep, type Clock } from "../base";

export type { Clock };

let current = realClock;

/** Real time, unless a test injected its own (setup waits, domain waits, the shared list). */
export const clock = {
  now: (): number => current.now(),
  /** Resolves after `ms` on the current clock. */
  sleep: (ms: number): Promise<void> => sleep(current, ms),
};

/** @internal For tests: waits run on `c`; undefined restores real time. */
export function setClock(c?: Clock): void {
  current = c ?? realClock;
}
