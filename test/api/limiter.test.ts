import { HostingClient, RequestLimiter } from "../../src/api";
import { startEmulator, type RunningEmulator } from "../../src/emulator";

/*
 * A hundred parallel reads against a limit of 20 requests per second per token. With the shared
 * limiter, the first 429 pauses everyone and narrows the gate, so the service sees a handful of
 * refusals and every read succeeds; without it, each request hammers the service on its own.
 */
async function burst(emu: RunningEmulator, limiter: RequestLimiter | false) {
  const token = emu.issueToken();
  const clients = Array.from(
    { length: 10 },
    () => new HostingClient({ apiUrl: emu.url, token, maxRetries: 6, limiter }),
  );
  emu.resetStats();
  const results = await Promise.allSettled(
    Array.from({ length: 100 }, (_, i) => clients[i % clients.length].listRuntimeVersions()),
  );
  await Promise.all(clients.map((c) => c.close()));
  return {
    ok: results.filter((r) => r.status === "fulfilled").length,
    refused: emu.stats().faults.rateLimited,
  };
}

describe("the limiter shared by every client of one API URL", () => {
  let emu: RunningEmulator;
  beforeAll(async () => {
    emu = await startEmulator({
      seed: "limits",
      faults: { rateLimit: { requests: 20, windowMs: 1000 } },
    });
  });
  afterAll(() => emu.stop());

  test("after a 429 everyone slows down: all reads succeed with few refusals", async () => {
    const shared = await burst(emu, new RequestLimiter(16));
    const unshared = await burst(emu, false);
    expect(shared.ok).toBe(100);
    expect(shared.refused).toBeLessThan(unshared.refused / 2);
  }, 120_000);

  test("clients built separately for the same URL share one gate", async () => {
    const emu2 = await startEmulator({ seed: "gate" });
    const a = new HostingClient({ apiUrl: emu2.url, token: emu2.issueToken() });
    const b = new HostingClient({ apiUrl: `${emu2.url}/`, token: emu2.issueToken("bob") });
    emu2.setFaults({
      rules: [{ route: "GET /apps", status: 429, retryAfterSeconds: 1, times: 1 }],
    });
    const started = Date.now();
    const first = a.listApps();
    await new Promise((r) => setTimeout(r, 100));
    // b asks a different route, never refused itself, yet waits for a's Retry-After.
    await b.listDatabases();
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    await first;
    await Promise.all([a.close(), b.close(), emu2.stop()]);
  });
});
