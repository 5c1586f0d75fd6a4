import { RequestLimiter, type Permit } from "../../src/api/limiter";
import { flush, ManualClock } from "../helpers/manual-clock";
import { driveMany, fixedWindow } from "../helpers/model-server";

/*
 * Programs that share a token (four stacks of a GitOps matrix deploying at once) know nothing of
 * each other: only what the server's answers say. Each runs its own limiter; together they must
 * fill the server's windows without a storm of 429s. On a manual clock against the emulator's
 * window rule, answers 1–100 ms late, resets stated in whole seconds as the emulator states them.
 */

const QUOTA = { limit: 50, windowMs: 1000 };
const stated = (seen: { remaining: number; resetMs: number }) => ({
  ...QUOTA,
  remaining: seen.remaining,
  resetMs: Math.ceil(seen.resetMs / 1000) * 1000,
});

async function share(programs: number) {
  const clock = new ManualClock();
  const limiters = Array.from({ length: programs }, () => new RequestLimiter({ clock }));
  const traffic = await driveMany(clock, limiters, fixedWindow(50, 1000), 10_000, stated);
  return {
    ok: traffic.reduce((n, t) => n + t.answered - t.refused, 0),
    refused: traffic.reduce((n, t) => n + t.refused, 0),
  };
}

describe("programs sharing one token's quota", () => {
  test.each([1, 2, 4])(
    "%i program(s): within 5 % of the quota together, next to no 429s",
    async (programs) => {
      const t = await share(programs);
      expect(t.ok).toBeGreaterThanOrEqual(0.95 * 500);
      expect(t.refused).toBeLessThanOrEqual(2);
    },
  );

  test("a `remaining: 0` of others' making pauses until the window's end, not a second more", async () => {
    const clock = new ManualClock();
    const limiter = new RequestLimiter({ clock });
    const granted: Permit[] = [];
    const ask = async () => {
      void limiter.acquire().then((p) => granted.push(p));
      await flush();
    };
    const answer = (remaining: number, resetMs: number) => {
      const p = granted.shift()!;
      limiter.observe(p, 200, { limit: 10, windowMs: 1000, remaining, resetMs });
      p.release();
    };
    const start = clock.now();
    await ask();
    answer(9, 1000); // the window began by this answer
    await clock.advance(600);
    await ask();
    // 400 ms are left, said as "1 s": the other eight of the window were another program's.
    answer(0, 1000);
    expect(limiter.pausedUntil).toBe(start + 1000);
  });
});
