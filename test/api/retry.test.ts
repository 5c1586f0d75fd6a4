import { createServer } from "node:net";
import {
  HostingClient,
  HostingConnectionError,
  RequestLimiter,
  ServerError,
  type RetryEvent,
} from "../../src/api";
import { backoffDelayMs, retryAfterMs, shouldRetry } from "../../src/api/retry";
import type { RunningEmulator } from "../../src/emulator";
import { useEmulator, useEmulators } from "../helpers/emulator";
import { FAKE_TOKEN, fixtureServer, json } from "../helpers/fixture-server";
import { TestClock } from "../helpers/test-clock";

const emulators = useEmulators();

const env = useEmulator({ setupDelayMs: 0 });

/** A client whose waits (backoff, pauses) run on a virtual clock: retried at once. */
const client = () => env.client({ limiter: new RequestLimiter({ clock: TestClock.virtual() }) });
afterEach(() => {
  env.emu.setFaults({});
  env.emu.resetStats();
});

describe("what is retried", () => {
  test("GET is retried through transient 503s and succeeds", async () => {
    env.emu.setFaults({ rules: [{ route: "GET /apps", status: 503, times: 2 }] });
    await expect(client().listApps()).resolves.toBeDefined();
    expect(env.emu.stats().requests["GET /apps"]).toBe(3);
  });

  test("GET is retried after a connection reset", async () => {
    env.emu.setFaults({ rules: [{ route: "GET /databases", reset: true, times: 1 }] });
    await expect(client().listDatabases()).resolves.toHaveLength(4);
    expect(env.emu.stats().requests["GET /databases"]).toBe(2);
  });

  test("POST is not repeated after a 500: it may have been applied", async () => {
    const vm = env.emu.world.vms[0];
    env.emu.setFaults({ rules: [{ route: "POST /vms/{vm_id}/start", status: 500, times: 1 }] });
    await expect(client().startVm(vm.id)).rejects.toBeInstanceOf(ServerError);
    expect(env.emu.stats().requests["POST /vms/{vm_id}/start"]).toBe(1);
  });

  test("POST is not repeated after the connection dropped mid-request", async () => {
    const vm = env.emu.world.vms[0];
    env.emu.setFaults({ rules: [{ route: "POST /vms/{vm_id}/start", reset: true, times: 1 }] });
    await expect(client().startVm(vm.id)).rejects.toBeInstanceOf(HostingConnectionError);
    expect(env.emu.stats().requests["POST /vms/{vm_id}/start"]).toBe(1);
  });

  test("POST is repeated after a 429: the server refused it without applying it", async () => {
    const vm = env.emu.world.vms[0];
    env.emu.setFaults({
      rules: [{ route: "POST /vms/{vm_id}/start", status: 429, retryAfterSeconds: 0, times: 1 }],
    });
    await expect(client().startVm(vm.id)).resolves.toMatchObject({
      message: expect.any(String),
    });
    expect(env.emu.stats().requests["POST /vms/{vm_id}/start"]).toBe(2);
  });

  test("POST is repeated when the server was not listening yet (never reached)", async () => {
    const port = await freePort();
    const clock = TestClock.manual(Date.now());
    let retrying!: (e: RetryEvent) => void;
    const firstRetry = new Promise<RetryEvent>((r) => (retrying = r));
    const client = new HostingClient({
      apiUrl: `http://127.0.0.1:${port}`,
      token: FAKE_TOKEN,
      limiter: new RequestLimiter({ clock }),
      onRetry: (e) => retrying(e),
    });
    let emu: RunningEmulator | undefined;
    try {
      const result = client.startVm("some-vm").catch((e: unknown) => e);
      // Refused: nothing listens yet. The retry waits its backoff; the server starts meanwhile.
      expect(await firstRetry).toMatchObject({ reason: "transient", attempt: 1 });
      emu = await emulators.start({ port, seed: "late" });
      await clock.advance(1000);
      const outcome = await result;
      // The fake token reaches the late server and is refused: proof the POST was sent again.
      expect((outcome as { status?: number }).status).toBe(401);
      expect(emu.stats().requests["POST /vms/{vm_id}/start"]).toBe(1);
    } finally {
      await client.close();
      await emu?.stop();
    }
  });

  test("429 is back-pressure: retried past maxRetries, each wait reported to onRetry", async () => {
    const slow = json(429, { error: "slow down" }, { "retry-after-ms": "10" });
    const fx = await fixtureServer([slow, slow, slow, slow, json(200, { message: "ok" })]);
    const events: string[] = [];
    const client = new HostingClient({
      apiUrl: fx.url,
      token: FAKE_TOKEN,
      maxRetries: 1,
      limiter: false,
      onRetry: (e) => events.push(`${e.reason} ${e.status} ${e.waitMs}`),
    });
    try {
      await expect(client.startVm("vm-1")).resolves.toEqual({ message: "ok" });
    } finally {
      await client.close();
      await fx.close();
    }
    expect(fx.seen).toHaveLength(5);
    expect(events).toEqual(Array(4).fill("throttled 429 10"));
  });

  test("every POST carries an Idempotency-Key that stays the same across its retries", async () => {
    const fx = await fixtureServer([
      json(429, { error: "slow down" }, { "retry-after-ms": "20" }),
      json(503, { error: "busy" }),
      json(200, { message: "ok" }),
    ]);
    const client = new HostingClient({
      apiUrl: fx.url,
      token: FAKE_TOKEN,
      limiter: new RequestLimiter({ clock: TestClock.virtual() }),
    });
    try {
      await expect(client.startVm("vm-1")).rejects.toBeInstanceOf(ServerError);
      await client.startVm("vm-1");
    } finally {
      await client.close();
      await fx.close();
    }
    const keys = fx.seen.map((r) => r.headers["idempotency-key"]);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).toBe(keys[0]); // the retry after 429 repeats the key
    expect(keys[2]).not.toBe(keys[0]); // a new call gets a new key
  });
});

describe("how long it waits", () => {
  test("Retry-After in seconds is honoured", async () => {
    env.emu.setFaults({
      rules: [{ route: "GET /apps", status: 429, retryAfterSeconds: 1, times: 1 }],
    });
    const clock = TestClock.manual(Date.now());
    let retrying!: (e: RetryEvent) => void;
    const firstRetry = new Promise<RetryEvent>((r) => (retrying = r));
    const call = env
      .client({ limiter: new RequestLimiter({ clock }), onRetry: (e) => retrying(e) })
      .listApps();
    expect(await firstRetry).toMatchObject({ reason: "throttled", waitMs: 1000 });
    // Not asked again before the second is over, on the clock the client waits by.
    await clock.advance(999);
    await new Promise((r) => setImmediate(r));
    expect(env.emu.stats().requests["GET /apps"]).toBe(1);
    let done = false;
    void call.finally(() => (done = true));
    for (let i = 0; i < 1000 && !done; i++) {
      await clock.advance(50);
      await new Promise((r) => setTimeout(r, 2));
    }
    await expect(call).resolves.toBeDefined();
    expect(env.emu.stats().requests["GET /apps"]).toBe(2);
  });

  test("retry-after-ms, seconds, HTTP dates, as asked (the deadline decides, not a cap)", () => {
    const now = Date.parse("2026-01-01T00:00:00Z");
    expect(retryAfterMs({ "retry-after-ms": "250" }, now)).toBe(250);
    expect(retryAfterMs({ "retry-after": "3" }, now)).toBe(3000);
    expect(retryAfterMs({ "retry-after": "Thu, 01 Jan 2026 00:00:05 GMT" }, now)).toBe(5000);
    expect(retryAfterMs({ "retry-after": "3600" }, now)).toBe(3_600_000);
    expect(retryAfterMs({ "retry-after": "soon" }, now)).toBeUndefined();
    expect(retryAfterMs({}, now)).toBeUndefined();
  });

  test("backoff starts at 0.5 s, doubles, is capped at 8 s, with at most 25% jitter", () => {
    expect(backoffDelayMs(0, () => 0)).toBe(500);
    expect(backoffDelayMs(1, () => 0)).toBe(1000);
    expect(backoffDelayMs(10, () => 0)).toBe(8000);
    expect(backoffDelayMs(0, () => 1)).toBe(375);
  });

  test("the retry table", () => {
    const net = (reachedServer: boolean) => ({
      kind: "network" as const,
      reachedServer,
      timeout: false,
    });
    expect(shouldRetry("GET", { kind: "status", status: 404 })).toBe(false);
    expect(shouldRetry("DELETE", { kind: "status", status: 502 })).toBe(true);
    expect(shouldRetry("GET", { kind: "status", status: 408 })).toBe(true);
    expect(shouldRetry("PATCH", { kind: "status", status: 503 })).toBe(false);
    expect(shouldRetry("PATCH", net(false))).toBe(true);
    expect(shouldRetry("POST", net(true))).toBe(false);
  });
});

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}
