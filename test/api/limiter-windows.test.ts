import { RequestLimiter, type Permit } from "../../src/api/limiter";
import { flush, TestClock } from "../helpers/test-clock";
import { drive, fixedWindow, slidingWindow } from "../helpers/model-server";

/*
 * The limiter against a stated quota's windows, on a manual clock: no sockets, no sleeps. The
 * model servers count each request on arrival and answer it up to 90 ms later.
 */

const QUOTA = { limit: 50, windowMs: 1000 };
/** What the emulator says: the quota, what remains, and the reset in whole seconds. */
const stated = (seen: { remaining: number; resetMs: number }) => ({
  ...QUOTA,
  remaining: seen.remaining,
  resetMs: Math.ceil(seen.resetMs / 1000) * 1000,
});

function setup() {
  const clock = TestClock.manual();
  const limiter = new RequestLimiter({ clock });
  const granted: Permit[] = [];
  const ask = (n: number) => {
    for (let i = 0; i < n; i++) void limiter.acquire().then((p) => granted.push(p));
    return flush();
  };
  const answer = (info: object) => {
    const p = granted.shift()!;
    limiter.observe(p, 200, info);
    p.release();
  };
  return { clock, limiter, granted, ask, answer };
}

describe("the limiter and a stated quota's windows", () => {
  test("with `remaining` reported it paces at the full quota; without, at 95 % of it", async () => {
    for (const [info, rate] of [
      [{ ...QUOTA, remaining: 49, resetMs: 1000 }, 50],
      [QUOTA, 47.5],
    ] as const) {
      const { limiter, ask, answer } = setup();
      await ask(1);
      answer(info);
      expect(limiter.rate).toBeCloseTo(rate);
    }
  });

  test("fixed windows, late answers: no 429, and within 5 % of the quota", async () => {
    const { clock, limiter } = setup();
    const t = await drive(clock, limiter, fixedWindow(50, 1000), 10_000, stated);
    expect(t.refused).toBe(0);
    expect(t.answered).toBeGreaterThanOrEqual(0.95 * 500);
  });

  test("sliding windows, late answers: no 429, and within 7 % of the quota", async () => {
    const { clock, limiter } = setup();
    const t = await drive(clock, limiter, slidingWindow(50, 1000), 10_000, stated);
    expect(t.refused).toBe(0);
    expect(t.answered).toBeGreaterThanOrEqual(0.93 * 500);
  });

  test("while others use the window, no more unanswered than our part of what is left", async () => {
    const { clock, granted, ask, answer } = setup();
    await ask(1);
    // Ours is one of the four counted: the other three are another program's.
    answer({ limit: 10, windowMs: 1000, remaining: 6, resetMs: 1000 });
    await ask(20);
    let sent = 0;
    for (let ms = 0; ms < 990; ms += 10) {
      sent += granted.splice(0).length; // in flight: never answered in this window
      await clock.advance(10);
    }
    // Ours was one of the four the window counted: a quarter of the 6 left, never all of them.
    expect(sent).toBe(1);
    await clock.advance(20);
    expect(granted.length).toBeGreaterThan(0);
  });

  test("a `remaining: 0` of our own making needs no pause; the window rule waits it out", async () => {
    const { clock, limiter, granted, ask, answer } = setup();
    await ask(1);
    answer({ limit: 2, windowMs: 1000, remaining: 1, resetMs: 1000 });
    await ask(2);
    await clock.advance(500);
    answer({ limit: 2, windowMs: 1000, remaining: 0, resetMs: 1000 });
    expect(limiter.pausedUntil).toBe(0);
    await clock.advance(480);
    expect(granted).toHaveLength(0); // two of ours within the window's length
    await clock.advance(30);
    expect(granted).toHaveLength(1); // the first one's answer is a window old
  });

  test("a `remaining: 0` of others' making pauses everyone until the reset", async () => {
    const { clock, limiter, granted, ask, answer } = setup();
    await ask(1);
    answer({ limit: 10, windowMs: 1000, remaining: 0, resetMs: 700 });
    await ask(3);
    expect(limiter.pausedUntil).toBe(clock.now() + 700);
    await clock.advance(690);
    expect(granted).toHaveLength(0);
    await clock.advance(20);
    expect(granted.length).toBeGreaterThan(0);
  });
});
