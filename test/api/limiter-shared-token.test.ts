import { RequestLimiter, type Permit } from "../../src/api/limiter";
import type { RateLimitInfo } from "../../src/api/rate-limit-headers";
import { flush, TestClock } from "../helpers/test-clock";
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
  const clock = TestClock.manual();
  const limiters = Array.from({ length: programs }, () => new RequestLimiter({ clock }));
  const traffic = await driveMany(clock, limiters, fixedWindow(50, 1000), 10_000, stated);
  return {
    ok: traffic.reduce((n, t) => n + t.answered - t.refused, 0),
    refused: traffic.reduce((n, t) => n + t.refused, 0),
  };
}

/** One program's limiter on a manual clock: `ask` queues requests, `answer` answers the oldest let through. */
function oneProgram() {
  const clock = TestClock.manual();
  const limiter = new RequestLimiter({ clock });
  const granted: Permit[] = [];
  const ask = async (n = 1) => {
    for (let i = 0; i < n; i++) void limiter.acquire().then((p) => granted.push(p));
    await flush();
  };
  const answer = (status: number, info: RateLimitInfo) => {
    const p = granted.shift()!;
    limiter.observe(p, status, info);
    p.release();
  };
  return { clock, limiter, granted, ask, answer };
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
    const { clock, limiter, ask, answer } = oneProgram();
    const said = (remaining: number) => ({ limit: 10, windowMs: 1000, remaining, resetMs: 1000 });
    const start = clock.now();
    await ask();
    answer(200, said(9)); // the window began by this answer
    await clock.advance(600);
    await ask();
    // 400 ms are left, said as "1 s": the other eight of the window were another program's.
    answer(200, said(0));
    expect(limiter.pausedUntil).toBe(start + 1000);
  });

  test("refused requests are not counted as our part: after a storm, the next window's part is what got through", async () => {
    const { clock, granted, ask, answer } = oneProgram();
    const got = (remaining: number) => answer(200, { ...QUOTA, remaining, resetMs: 1000 });
    const refused = () =>
      answer(429, { ...QUOTA, remaining: 0, resetMs: 1000, retryAfterMs: 1000 });
    // One window: our first request alone, then 29 at once; another program takes 30 of the 50
    // meanwhile, so 9 of ours get through and 20 are refused (10 of ours counted in all).
    await ask();
    got(49);
    await ask(29);
    await clock.advance(600); // paced at the quota: 50 a second
    expect(granted).toHaveLength(29);
    for (let left = 18; left >= 10; left--) got(left);
    while (granted.length > 0) refused();
    // The next window: the first answer shows it fresh; how much of it is ours to take at once?
    await clock.advance(1000);
    await ask(50);
    expect(granted).toHaveLength(1); // one request finds out what the new window holds
    got(49);
    await clock.advance(400); // the pace alone would let 20 go meanwhile
    // Our part is 10 of 50 (a fifth), not 30 of 50: at most a fifth of what is left goes.
    expect(granted.length).toBeLessThanOrEqual(Math.floor(49 / 5));
    expect(granted.length).toBeGreaterThan(0);
  });
});
