import { setTimeout as sleep } from "node:timers/promises";
import { HostingClient, RequestLimiter } from "../../src/api";
import type { RetryEvent } from "../../src/api/retry";
import { FAKE_TOKEN, fixtureServer, json } from "../helpers/fixture-server";
import { TestClock } from "../helpers/test-clock";
import { until } from "../helpers/until";

/*
 * A 429 without Retry-After: the shared limiter cuts its rate and holds the retry back. What
 * onRetry and HOSTING_LOG=debug report as the wait is that hold, on the limiter's clock, and an
 * attempt's duration is the request's own time, not the time it sat in the limiter.
 */

test("after a 429 without Retry-After the reported wait is the limiter's real pause", async () => {
  const fx = await fixtureServer([json(429, { error: "slow down" }), json(200, [])]);
  const events: RetryEvent[] = [];
  const lines: string[] = [];
  const write = process.stderr.write.bind(process.stderr);
  const spy = jest.spyOn(process.stderr, "write").mockImplementation((chunk, ...rest) => {
    if (String(chunk).startsWith("hosting debug:")) lines.push(String(chunk));
    else return write(chunk as string, ...(rest as []));
    return true;
  });
  process.env.HOSTING_LOG = "debug";
  const clock = TestClock.manual();
  const limiter = new RequestLimiter({ clock });
  const client = new HostingClient({
    apiUrl: fx.url,
    token: FAKE_TOKEN,
    limiter,
    onRetry: (e) => events.push(e),
  });
  try {
    let done = false;
    const call = client.listApps().finally(() => (done = true));
    await until("the retry to be reported", () => events.length > 0, 20_000);
    const { waitMs } = events[0];
    expect(waitMs).toBeGreaterThan(0); // the limiter does hold the retry back
    // The hold lasts a real while too, so a duration that counted it would show it.
    await sleep(100);
    await clock.advance(waitMs - 1);
    expect({ done, inFlight: limiter.inFlight, sent: fx.seen.length }).toEqual({
      done: false,
      inFlight: 0,
      sent: 1,
    });
    const releasedAt = performance.now();
    await clock.advance(2);
    await expect(call).resolves.toEqual([]);
    const took = performance.now() - releasedAt;
    expect(fx.seen).toHaveLength(2);
    expect(events).toHaveLength(1);
    expect(lines.join("")).toContain(`waiting ${waitMs} ms`);
    // The retry's own duration: from its release, not from when it started waiting.
    const retryLine = lines.find((l) => /-> ok in \d+ ms \(attempt 2\)/.test(l))!;
    expect(Number(/ok in (\d+) ms/.exec(retryLine)![1])).toBeLessThanOrEqual(Math.ceil(took));
  } finally {
    delete process.env.HOSTING_LOG;
    spy.mockRestore();
    await client.close();
    await fx.close();
  }
});
