import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { HostingClient, RateLimitError, RequestLimiter, type RetryEvent } from "../../src/api";
import { setSharedLimiterClock } from "../../src/api/shared-limiters";
import type { RunningEmulator } from "../../src/emulator";
import { useEmulators } from "../helpers/emulator";
import { TestClock } from "../helpers/test-clock";

/*
 * The shared limiter over real sockets, its waits (and the servers' windows) on a virtual or
 * manual clock: no real waiting. Sixty parallel reads from ten clients of one token against a
 * limit of 20 requests per second: the limiter learns the quota from the RateLimit headers and
 * paces below it, so every read succeeds with (almost) no refusal. A limiter per client learns
 * what others leave from the same headers and overruns by only a few (0 to 3 refusals here, 0
 * under a loaded CI machine, where real time moves the windows on), so that contrast is not
 * asserted; that clients of one token share one limiter is the next test's, on a manual clock.
 */
afterEach(() => setSharedLimiterClock(undefined));

async function burst(emu: RunningEmulator, limiter: () => RequestLimiter | undefined) {
  const token = emu.issueToken();
  const clients = Array.from(
    { length: 10 },
    () => new HostingClient({ apiUrl: emu.url, token, limiter: limiter() }),
  );
  emu.resetStats();
  const results = await Promise.allSettled(
    Array.from({ length: 60 }, (_, i) => clients[i % clients.length].listRuntimeVersions()),
  );
  await Promise.all(clients.map((c) => c.close()));
  return {
    ok: results.filter((r) => r.status === "fulfilled").length,
    refused: emu.stats().faults.rateLimited,
  };
}

describe("the limiter shared by every client of one API URL and token", () => {
  const clock = TestClock.virtual();
  let emu: RunningEmulator;
  const emulators = useEmulators();
  beforeAll(async () => {
    emu = await emulators.start({
      seed: "limits",
      faults: { rateLimit: { requests: 20, windowMs: 1000 } },
      now: clock.now,
    });
  });

  test("it paces below the server's stated quota: all reads succeed, next to no 429s", async () => {
    setSharedLimiterClock(clock);
    const shared = await burst(emu, () => undefined);
    const unshared = await burst(emu, () => new RequestLimiter({ clock }));
    expect(shared.ok).toBe(60);
    expect(unshared.ok).toBe(60); // 429s are waited out, not failures
    expect(shared.refused).toBeLessThanOrEqual(2);
  });

  test("clients of one token share one pause; another token's clients do not wait", async () => {
    const manual = TestClock.manual(Date.now());
    setSharedLimiterClock(manual);
    const emu2 = await emulators.start({ seed: "gate" });
    const alice = emu2.issueToken("alice");
    let throttled!: (e: RetryEvent) => void;
    const firstRetry = new Promise<RetryEvent>((r) => (throttled = r));
    const a = new HostingClient({ apiUrl: emu2.url, token: alice, onRetry: (e) => throttled(e) });
    const b = new HostingClient({ apiUrl: `${emu2.url}/`, token: alice });
    const c = new HostingClient({ apiUrl: emu2.url, token: emu2.issueToken("bob") });
    try {
      emu2.setFaults({
        rules: [{ route: "GET /apps", status: 429, retryAfterSeconds: 1, times: 1 }],
      });
      const first = a.listApps();
      const event = await firstRetry;
      // The wait is visible to a debug log, and says nothing secret.
      expect(event).toMatchObject({ reason: "throttled", status: 429, operation: "listApps" });
      expect(event.waitMs).toBe(1000);
      expect(JSON.stringify(event)).not.toContain(alice);
      // Alice again, another client and route, asks first; bob's call still goes, his comes back
      // while the clock stands still, and hers has not been sent: it sits out alice's pause.
      const aliceAgain = b.listDatabases();
      await c.listDatabases();
      expect(emu2.stats().requests["GET /databases"]).toBe(1);
      await manual.advance(999);
      expect(emu2.stats().requests["GET /databases"]).toBe(1);
      await manual.advance(1);
      // Past the pause, the rate cut of the 429 paces the two calls: the clock runs on until done.
      let done = false;
      const both = Promise.all([first, aliceAgain]).finally(() => (done = true));
      for (let i = 0; i < 1000 && !done; i++) {
        await manual.advance(50);
        await new Promise((r) => setTimeout(r, 2));
      }
      await both;
      expect(emu2.stats().requests["GET /databases"]).toBe(2);
    } finally {
      await Promise.all([a.close(), b.close(), c.close(), emu2.stop()]);
    }
  });
});

/**
 * A server that states nothing but Retry-After (a fixed window of `limit` per second): the
 * limiter has to find the rate from 429s alone, cutting and probing back.
 */
async function quietLimitServer(limit: number) {
  let windowStart = 0;
  let count = 0;
  let refused = 0;
  const server = createServer((req, res) => {
    const now = Date.now();
    if (now - windowStart >= 1000) {
      windowStart = now;
      count = 0;
    }
    req.resume();
    if (++count > limit) {
      refused++;
      res.writeHead(429, { "content-type": "application/json", "retry-after": "1" });
      res.end(JSON.stringify({ error: "slow down" }));
      return;
    }
    res.writeHead(200, { "content-type": "application/json" });
    res.end("[]");
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    refused: () => refused,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

const TOKEN = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJxdWlldCJ9.c2lnbmF0dXJlLW9mLWEtcXVpZXQtdG9rZW4";

describe("a server that only says Retry-After", () => {
  test("429s are waited out until the call's deadline, and the rate is learned from them", async () => {
    // Real time: on a virtual clock a pause would jump time while requests are in the air, and
    // the server's windows with it, which real time never does.
    const srv = await quietLimitServer(20);
    const client = new HostingClient({ apiUrl: srv.url, token: TOKEN, maxRetries: 0 });
    let results: PromiseSettledResult<unknown>[];
    try {
      results = await Promise.allSettled(
        Array.from({ length: 80 }, () => client.listRuntimeVersions()),
      );
    } finally {
      await client.close();
      await srv.close();
    }
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(80);
    // Learned: far fewer refusals than requests, although none was allowed a transient retry.
    expect(srv.refused()).toBeLessThan(40);
  }, 60_000);

  test("past the throttle deadline, a 429 is a RateLimitError with the server's wait", async () => {
    const srv = await quietLimitServer(0);
    const client = new HostingClient({ apiUrl: srv.url, token: TOKEN, throttleTimeoutMs: 500 });
    try {
      await expect(client.listApps()).rejects.toMatchObject({
        constructor: RateLimitError,
        retryAfterMs: 1000,
      });
    } finally {
      await client.close();
      await srv.close();
    }
  });
});
