import type { IncomingMessage, ServerResponse } from "node:http";
import {
  AuthenticationError,
  HostingClient,
  HostingConnectionError,
  HostingRedirectError,
  HostingReplyTooLargeError,
  HostingResponseError,
  HostingTimeoutError,
  type HostingClientOptions,
} from "../../src/api";
import { makeNetworkError } from "../../src/api/network-errors";
import { FAKE_TOKEN, fixtureServer, json } from "../helpers/fixture-server";

/* Hostile or unlucky servers on 127.0.0.1, and the words and codes the client answers with. */

type Reply = (req: IncomingMessage, res: ServerResponse) => void;

async function against(reply: Reply, options: Partial<HostingClientOptions> = {}) {
  const fx = await fixtureServer([reply]);
  const client = new HostingClient({ apiUrl: fx.url, token: FAKE_TOKEN, ...options });
  const err = await client.listApps().then(
    () => undefined,
    (e: unknown) => e as Error & { code: string },
  );
  await client.close();
  await fx.close();
  return { err, seen: fx.seen, host: new URL(fx.url).host };
}

/** Writes `total` bytes in 1 MiB chunks, honouring backpressure, until done or hung up on. */
function streamBytes(total: number, headers: Record<string, string | number>, status = 200) {
  let written = 0;
  let closed: (bytes: number) => void = () => undefined;
  /** Resolves, when the connection closes, with the bytes written by then. */
  const writtenAtClose = new Promise<number>((r) => (closed = r));
  const reply: Reply = (_req, res) => {
    res.writeHead(status, { "content-type": "application/json", ...headers });
    const chunk = Buffer.alloc(1024 * 1024, 0x20);
    res.on("close", () => closed(written));
    const pump = () => {
      while (written < total && !res.destroyed) {
        written += chunk.length;
        if (!res.write(chunk)) return void res.once("drain", pump);
      }
      if (!res.destroyed) res.end();
    };
    pump();
  };
  return { reply, writtenAtClose };
}

describe("reply size limit", () => {
  test("a 1 GiB streamed reply is refused past the limit, not retried, memory flat", async () => {
    const GiB = 1024 ** 3;
    const { reply, writtenAtClose } = streamBytes(GiB, {});
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
    const { err, seen } = await against(reply, { maxResponseBytes: 4 * 1024 * 1024 });
    clearInterval(sampler);
    expect(err).toBeInstanceOf(HostingReplyTooLargeError);
    expect(err).toBeInstanceOf(HostingResponseError);
    expect(err?.code).toBe("HOSTING_REPLY_TOO_LARGE");
    expect(err?.message).toMatch(/GET \/apps: reply larger than 4 MiB/);
    expect(seen).toHaveLength(1); // a GET, yet not retried: the same reply would come again
    expect(await writtenAtClose).toBeLessThan(128 * 1024 * 1024);
    expect(peak - before).toBeLessThan(256 * 1024 * 1024);
  });

  test("a declared Content-Length past the default 32 MiB is refused before reading it", async () => {
    const size = 64 * 1024 * 1024;
    const { reply, writtenAtClose } = streamBytes(size, { "content-length": size });
    const { err } = await against(reply, { maxRetries: 0 });
    expect(err).toBeInstanceOf(HostingReplyTooLargeError);
    expect(err?.message).toMatch(/reply larger than 32 MiB/);
    expect(await writtenAtClose).toBeLessThan(size);
  });

  test("an oversized error body is refused too, not retried", async () => {
    const { reply } = streamBytes(8 * 1024 * 1024, {}, 500);
    const { err, seen } = await against(reply, { maxResponseBytes: 1024 * 1024 });
    expect(err?.code).toBe("HOSTING_REPLY_TOO_LARGE");
    expect(seen).toHaveLength(1);
  });
});

describe("errors that say what happened", () => {
  test("nothing listening: could not connect, with the address", async () => {
    const fx = await fixtureServer([json(200, [])]);
    await fx.close();
    const c = new HostingClient({ apiUrl: fx.url, token: FAKE_TOKEN, maxRetries: 0 });
    let err: HostingConnectionError;
    try {
      err = (await c.listApps().catch((e: unknown) => e)) as HostingConnectionError;
    } finally {
      await c.close();
    }
    expect(err).toBeInstanceOf(HostingConnectionError);
    expect(err).not.toBeInstanceOf(HostingTimeoutError);
    expect(err.code).toBe("HOSTING_CONNECTION_FAILED");
    expect(err.address).toBe(new URL(fx.url).host);
    expect(err.message).toBe(
      `GET /apps: could not connect to the Hosting API at ${new URL(fx.url).host} ` +
        "(connection refused, ECONNREFUSED); check the apiUrl option and that the service is reachable",
    );
    expect(err.fix).toEqual({
      option: "apiUrl",
      advice: "check the apiUrl option and that the service is reachable",
    });
  });

  test("connected, no reply: a timeout that says the server was reached", async () => {
    const { err, host, seen } = await against(() => undefined, { timeoutMs: 300, maxRetries: 1 });
    expect(err).toBeInstanceOf(HostingTimeoutError);
    expect(err).toMatchObject({ code: "HOSTING_TIMEOUT", phase: "idle", limitMs: 300 });
    expect(err?.message).toBe(
      `GET /apps: connected to the Hosting API at ${host}, but no reply within 0.3 s; ` +
        "raise the timeoutMs option if the service or the link is merely slow",
    );
    expect(err).toMatchObject({ fix: { option: "timeoutMs" } });
    expect(err?.message).not.toMatch(/could not reach|could not connect/);
    expect(seen).toHaveLength(2); // a GET that timed out is safe to repeat
  });

  test("a reply that stops halfway: the reply stalled", async () => {
    const { err } = await against(
      (_req, res) => {
        res.writeHead(200, { "content-type": "application/json" });
        res.write("[");
      },
      { timeoutMs: 300, maxRetries: 0 },
    );
    expect(err).toMatchObject({ code: "HOSTING_TIMEOUT", phase: "idle" });
    expect(err?.message).toMatch(/the reply from .* stalled: no bytes for 0.3 s/);
  });

  test("a reply that drips forever: the overall limit", async () => {
    const { err } = await against(
      (_req, res) => {
        res.writeHead(200, { "content-type": "application/json" });
        const t = setInterval(() => res.write(" "), 20);
        res.on("close", () => clearInterval(t));
      },
      { timeoutMs: 300, overallTimeoutMs: 600, maxRetries: 0 },
    );
    expect(err).toMatchObject({ code: "HOSTING_DEADLINE_EXCEEDED", phase: "overall" });
    expect(err?.message).toMatch(/no complete reply from .* within the overall limit of 0.6 s/);
  });

  test("connected, then hung up on: the connection closed before a whole reply", async () => {
    const { err } = await against((req) => req.socket.destroy(), { maxRetries: 0 });
    expect(err).toBeInstanceOf(HostingConnectionError);
    expect(err?.code).toBe("HOSTING_CONNECTION_LOST");
    expect(err?.message).toMatch(/GET \/apps: the connection to the Hosting API at .* closed/);
  });

  test("a redirect names the Location and says to check the API URL; not followed", async () => {
    const { err, seen } = await against((_req, res) => {
      res.writeHead(301, { location: "https://www.example.test/login" });
      res.end("<html>moved</html>");
    });
    expect(err).toBeInstanceOf(HostingRedirectError);
    expect(err).toMatchObject({
      code: "HOSTING_REDIRECTED",
      status: 301,
      location: "https://www.example.test/login",
    });
    expect(err?.message).toBe(
      "GET /apps failed with 301: redirected to https://www.example.test/login; the client does " +
        "not follow redirects: check that the apiUrl option is the API's base URL",
    );
    expect(err).toMatchObject({ fix: { option: "apiUrl" } });
    expect(seen).toHaveLength(1);
  });

  test("401 says to check the token, in the client's words (no Pulumi)", async () => {
    const { err } = await against(json(401, { error: "token signature is invalid" }));
    expect(err).toBeInstanceOf(AuthenticationError);
    expect(err?.code).toBe("HOSTING_UNAUTHORIZED");
    expect(err?.message).toBe(
      "GET /apps failed with 401: token signature is invalid; check the token option: it must " +
        "be a current API token of the account",
    );
    expect(err).toMatchObject({ fix: { option: "token" } });
  });
});

describe("connect limit", () => {
  // No routable-but-silent address exists offline; the mapping from undici's connect timeout
  // is checked directly.
  test("undici's connect timeout reads as could not connect within N s", () => {
    const cause = Object.assign(new Error("Connect Timeout Error"), {
      code: "UND_ERR_CONNECT_TIMEOUT",
    });
    const { error, reachedServer } = makeNetworkError({
      method: "POST",
      path: "/apps",
      address: "api.example.test:443",
      cause,
      connectMs: 10_000,
    });
    expect(error).toBeInstanceOf(HostingTimeoutError);
    expect(error).toMatchObject({ code: "HOSTING_CONNECT_TIMEOUT", phase: "connect", cause });
    expect(error.message).toBe(
      "POST /apps: could not connect to the Hosting API at api.example.test:443 within 10 s; " +
        "check the apiUrl option and that the service is reachable, or raise connectTimeoutMs",
    );
    expect(reachedServer).toBe(false); // so even a POST may be retried
  });
});
