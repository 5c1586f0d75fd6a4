import { HostingClient } from "../../src/api";
import type { RetryEvent } from "../../src/api/retry";
import { FAKE_TOKEN, fixtureServer, json } from "../helpers/fixture-server";

/*
 * A 429 without Retry-After: the shared limiter cuts its rate and holds the retry back. What
 * onRetry and HOSTING_LOG=debug report as the wait is that hold, and an attempt's duration is the
 * request's own time, not the time it sat in the limiter.
 */

test("after a 429 without Retry-After the reported wait is the limiter's real pause", async () => {
  const arrivals: number[] = [];
  const stamp =
    (reply: ReturnType<typeof json>): ReturnType<typeof json> =>
    (req, res) => {
      arrivals.push(performance.now());
      reply(req, res);
    };
  const fx = await fixtureServer([stamp(json(429, { error: "slow down" })), stamp(json(200, []))]);
  const events: Array<RetryEvent & { at: number }> = [];
  const lines: string[] = [];
  const write = process.stderr.write.bind(process.stderr);
  const spy = jest.spyOn(process.stderr, "write").mockImplementation((chunk, ...rest) => {
    if (String(chunk).startsWith("hosting debug:")) lines.push(String(chunk));
    else return write(chunk as string, ...(rest as []));
    return true;
  });
  process.env.HOSTING_LOG = "debug";
  const client = new HostingClient({
    apiUrl: fx.url,
    token: FAKE_TOKEN,
    onRetry: (e) => events.push({ ...e, at: performance.now() }),
  });
  try {
    await expect(client.listApps()).resolves.toEqual([]);
  } finally {
    delete process.env.HOSTING_LOG;
    spy.mockRestore();
    await client.close();
    await fx.close();
  }
  expect(events).toHaveLength(1);
  const waited = arrivals[1] - events[0].at;
  expect(waited).toBeGreaterThan(300); // the limiter did hold the retry back
  expect(events[0].waitMs).toBeGreaterThan(0.6 * waited);
  expect(events[0].waitMs).toBeLessThanOrEqual(waited + 50);
  expect(lines.join("")).toContain(`waiting ${events[0].waitMs} ms`);
  // The retry's own duration excludes the pause.
  const retryLine = lines.find((l) => /-> ok in \d+ ms \(attempt 2\)/.test(l))!;
  const ms = Number(/ok in (\d+) ms/.exec(retryLine)![1]);
  expect(ms).toBeLessThan(waited / 2);
});
