import { randomBytes } from "node:crypto";
import { stat } from "node:fs/promises";
import { connect, createServer, type Server, type Socket } from "node:net";
import type { AddressInfo } from "node:net";
import { HostingClient, HostingTimeoutError } from "../../src/api";
import { useEmulator } from "../helpers/emulator";
import { makeZip } from "../helpers/zip";

/*
 * Uploads through a throttled TCP proxy in front of the emulator. The idle limit (timeoutMs) used
 * to be one deadline for the whole attempt; now an upload lives as long as bytes keep moving.
 */

const env = useEmulator({ setupDelayMs: 0 });

/** Forwards to `target`, client → server at most `bytesPerSecond` (0: stop after the first chunk). */
async function throttlingProxy(target: string, bytesPerSecond: number) {
  const { hostname, port } = new URL(target);
  const sockets = new Set<Socket>();
  const withData = new Set<Socket>();
  const server: Server = createServer((down) => {
    const up = connect(Number(port), hostname);
    sockets.add(down).add(up);
    up.pipe(down);
    down.on("data", (chunk: Buffer) => {
      withData.add(down);
      up.write(chunk);
      down.pause();
      if (bytesPerSecond > 0)
        setTimeout(() => down.resume(), (chunk.length / bytesPerSecond) * 1000);
    });
    down.on("end", () => up.end());
    const drop = () => {
      down.destroy();
      up.destroy();
    };
    down.on("error", drop).on("close", drop);
    up.on("error", drop).on("close", drop);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    /** Connections the client sent bytes on (a connect that timed out on a busy machine sends
     * none, and is rightly tried again). */
    requestsSent: () => withData.size,
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}

/*
 * The OS buffers a few MiB of a socket (about 4 MiB on loopback) before the client sees a write
 * wait, so the idle limit has to exceed buffer ÷ rate: here about 1 s against a 3 s limit. The
 * margin is wide on purpose: the proxy runs in the test's own process, and on a loaded CI machine
 * that process can stall long enough for a 1.5 s limit to fire while bytes were still moving.
 */
const RATE = 4 * 1024 * 1024;
const IDLE_MS = 3000;

test("a 16 MiB upload at 4 MiB/s finishes past the 3 s limit that used to cut it", async () => {
  const blob = randomBytes(16 * 1024 * 1024);
  const archivePath = await makeZip({ "index.js": "", "blob.bin": blob }, { compress: false });
  const size = (await stat(archivePath)).size;
  const proxy = await throttlingProxy(env.emu.url, RATE);
  try {
    const slow = new HostingClient({
      apiUrl: proxy.url,
      token: env.emu.issueToken(),
      timeoutMs: IDLE_MS,
      maxRetries: 0,
    });
    const started = Date.now();
    let id: string;
    try {
      ({ id } = await slow.createApp({ archivePath }));
    } finally {
      await slow.close();
    }
    const seconds = (Date.now() - started) / 1000;
    const app = env.emu.world.apps.find((a) => a.id === id);
    expect(app?.archive_bytes).toBe(size);
    // The premise: under the old whole-attempt deadline of timeoutMs this upload would fail.
    expect(seconds).toBeGreaterThan(IDLE_MS / 1000);
    expect((await env.client().listApps()).some((a) => a.app.id === id)).toBe(true);
    console.log(
      `slow upload: ${(size / 1048576).toFixed(1)} MiB in ${seconds.toFixed(1)} s ` +
        `(${(size / 1048576 / seconds).toFixed(2)} MiB/s) with timeoutMs ${IDLE_MS}`,
    );
  } finally {
    await proxy.close();
  }
});

test("an upload that stops moving fails after the idle limit, and is not repeated", async () => {
  const archivePath = await makeZip(
    { "blob.bin": randomBytes(24 * 1024 * 1024) },
    { compress: false },
  );
  const proxy = await throttlingProxy(env.emu.url, 0);
  const slow = new HostingClient({
    apiUrl: proxy.url,
    token: env.emu.issueToken(),
    timeoutMs: 500,
  });
  const before = env.emu.world.apps.length;
  try {
    const err = await slow.createApp({ archivePath }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HostingTimeoutError);
    expect(err).toMatchObject({
      code: "HOSTING_TIMEOUT",
      phase: "idle",
      mayHaveTakenEffect: false,
    });
    expect((err as Error).message).toMatch(
      /^POST \/apps: the upload to the Hosting API at .* stalled: no bytes moved for 0.5 s; raise the timeoutMs option if the service or the link is merely slow$/,
    );
    expect(proxy.requestsSent()).toBe(1); // not resent: stalled uploads are not retried
    expect(env.emu.world.apps.length).toBe(before);
  } finally {
    await slow.close();
    await proxy.close();
  }
});
