import { createServer, type AddressInfo } from "node:net";
import { HostingClient, RateLimitError, RequestLimiter, type RetryEvent } from "../../src/api";
import { FAKE_TOKEN, fixtureServer, json } from "../helpers/fixture-server";
import { TestClock } from "../helpers/test-clock";

/*
 * A refusal that is retried is dropped, not shown: its text reaches the user only through
 * onRetry's message, which is scrubbed on its own. The error itself is scrubbed when it leaves the
 * client, since scrubbing reads its stack, and Pulumi's provider host formats stacks through
 * source maps: 5-50 ms an error, which four hosts sharing a token paid for every 429 (up to
 * 0.2 s of CPU each, while they were short of it).
 */

const echoing = (status: number) =>
  json(status, { error: `slow down, holder of Bearer ${FAKE_TOKEN}` }, { "retry-after": "0" });

const clientOf = (url: string, onRetry: (e: RetryEvent) => void) =>
  new HostingClient({
    apiUrl: url,
    token: FAKE_TOKEN,
    limiter: new RequestLimiter({ clock: TestClock.virtual() }),
    onRetry,
    maxRetries: 1,
  });

/**
 * The client first, then its server: a kept-alive socket the server ends first fails in undici
 * ("other side closed") a moment later, and that error's stack is formatted in the next test.
 */
async function closeBoth(client: HostingClient, fx: { close(): Promise<void> }): Promise<void> {
  await client.close();
  await fx.close();
}

/** Counts the stacks formatted while `run` runs (V8 calls prepareStackTrace once per stack). */
async function stacksFormatted(run: () => Promise<unknown>): Promise<number> {
  const before = Error.prepareStackTrace;
  let formatted = 0;
  Error.prepareStackTrace = (err, frames) => {
    formatted++;
    return before
      ? before(err, frames)
      : `${String(err)}\n${frames.map((f) => `    at ${f}`).join("\n")}`;
  };
  try {
    await run();
  } finally {
    Error.prepareStackTrace = before;
  }
  return formatted;
}

test("a retried 429 that echoes the token: onRetry's message is redacted, no stack is formatted", async () => {
  const fx = await fixtureServer([echoing(429), json(200, [])]);
  const retries: RetryEvent[] = [];
  const client = clientOf(fx.url, (e) => retries.push(e));
  try {
    expect(await stacksFormatted(() => client.listApps())).toBe(0);
    expect(retries).toHaveLength(1);
    expect(retries[0].message).toContain("slow down, holder of Bearer [redacted]");
    expect(retries[0].message).not.toContain(FAKE_TOKEN.split(".")[2]);
  } finally {
    await closeBoth(client, fx);
  }
});

test("the refusal that is not retried leaves scrubbed, message and stack", async () => {
  const fx = await fixtureServer([echoing(429)]);
  const client = clientOf(fx.url, () => undefined);
  try {
    const err = await client.listApps().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(RateLimitError);
    const { message, stack } = err as Error;
    expect(message).toContain("Bearer [redacted]");
    expect(`${message}\n${stack}`).not.toContain(FAKE_TOKEN.split(".")[2]);
  } finally {
    await closeBoth(client, fx);
  }
});

/** Every string held anywhere in `v` (own properties, any depth, causes included). */
function stringsIn(v: unknown, seen = new Set<unknown>()): string[] {
  if (typeof v === "string") return [v];
  if (v === null || typeof v !== "object" || seen.has(v)) return [];
  seen.add(v);
  return Reflect.ownKeys(v).flatMap((k) => {
    const d = Object.getOwnPropertyDescriptor(v, k);
    return d && "value" in d ? stringsIn(d.value, seen) : [];
  });
}

test("a broken reply echoing the Authorization header, retried until retries end: nothing holds the token", async () => {
  // undici keeps the bytes it could not parse on its error (`data`): the header, token and all.
  const server = createServer((socket) =>
    socket.once("data", (request) => {
      const auth = /authorization: ([^\r\n]*)/i.exec(request.toString("latin1"))?.[1] ?? "";
      socket.end(`HTTP/1.1 200 OK\r\nX-Echo: ${auth}\r\nBad\u0001: ${auth}\r\n\r\n`);
    }),
  );
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  try {
    const retries: RetryEvent[] = [];
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const client = clientOf(url, (e) => retries.push(e));
    const err = await client
      .listApps()
      .finally(() => client.close())
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(err).toBeInstanceOf(Error);
    expect(retries).toHaveLength(1);
    const signature = FAKE_TOKEN.split(".")[2];
    const held = [...stringsIn(err), ...retries.map((r) => r.message)];
    expect(held.filter((s) => s.includes(signature))).toEqual([]);
  } finally {
    server.close();
  }
});
