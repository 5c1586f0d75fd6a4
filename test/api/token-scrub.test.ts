import { createServer as createTcpServer, type Server } from "node:net";
import type { AddressInfo } from "node:net";
import type { IncomingMessage, ServerResponse } from "node:http";
import { inspect } from "node:util";
import {
  AuthenticationError,
  BadRequestError,
  ConflictError,
  HostingApiError,
  HostingClient,
  HostingConnectionError,
  HostingRedirectError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  ServerError,
  UnprocessableEntityError,
} from "../../src/api";
import { fixtureServer } from "../helpers/fixture-server";

/*
 * A server (or a proxy in front of it) that echoes the Authorization header back into whatever
 * ends up in an error. Every echo mode × every error class: the token must not appear in the
 * message, the stack, util.inspect, JSON.stringify or the cause chain.
 */

const TOKENS = {
  // Shaped like a real JWT (base64url JSON header): also caught by the JWT pattern.
  jwt: "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1c2VyLTQyIn0.k3Q9sWcXb1mY0e8rT2uV6wZ4aP7dF5gH",
  // JWT-shaped but no `eyJ`: only the token itself (and its parts) can catch it.
  plain: "Zm9vYmFyYmF6cXV4.c2VjcmV0LXBheWxvYWQtZGF0YQ.U2lnbmF0dXJlLXBhcnQtOTk5",
};

type Echo = (auth: string) => { body: string; headers: Record<string, string>; html?: boolean };

const bearer = (auth: string) => auth; // "Bearer <token>" as sent
const raw = (auth: string) => auth.replace(/^Bearer /, "");

const ECHO_MODES: Record<string, Echo> = {
  "JSON error echoing the Bearer header": (a) => ({
    body: JSON.stringify({ error: `invalid token: ${bearer(a)}` }),
    headers: {},
  }),
  "JSON error echoing the raw token": (a) => ({
    body: JSON.stringify({ error: `token ${raw(a)} is not valid` }),
    headers: {},
  }),
  "HTML page with the token deep inside": (a) => ({
    body: `<html><body><h1>Denied</h1><pre>Authorization: ${bearer(a)}</pre></body></html>`,
    headers: {},
    html: true,
  }),
  "a truncated token": (a) => ({
    body: JSON.stringify({ error: `bad credentials ${raw(a).slice(0, 50)}…` }),
    headers: {},
  }),
  "only the signature part": (a) => ({
    body: JSON.stringify({ error: `signature ${raw(a).split(".")[2]} does not verify` }),
    headers: {},
  }),
  "request id header": (a) => ({
    body: JSON.stringify({ error: "nope" }),
    headers: { "x-request-id": `req-1 ${raw(a)}` },
  }),
  "Location header": (a) => ({
    body: "",
    headers: { location: `https://login.example.test/?t=${raw(a)}` },
  }),
};

const STATUSES: Array<[number, new (...args: never[]) => HostingApiError]> = [
  [307, HostingRedirectError],
  [400, BadRequestError],
  [401, AuthenticationError],
  [403, PermissionDeniedError],
  [404, NotFoundError],
  [409, ConflictError],
  [418, HostingApiError],
  [422, UnprocessableEntityError],
  [429, RateLimitError],
  [500, ServerError],
];

function surfaces(err: unknown): string[] {
  const e = err as Error & { cause?: unknown };
  const out = [
    e.message,
    String(e.stack),
    String(e),
    inspect(e, { depth: 10, showHidden: true }),
    JSON.stringify(e),
  ];
  for (let c: unknown = e.cause; c; c = (c as { cause?: unknown }).cause) {
    out.push(inspect(c, { depth: 10, showHidden: true }), JSON.stringify(c) ?? "");
  }
  return out;
}

function expectClean(err: unknown, token: string): void {
  const texts = surfaces(err).join("\n");
  expect(texts).not.toContain(token);
  for (const part of token.split(".")) expect(texts).not.toContain(part);
  expect(texts).not.toMatch(/eyJ[A-Za-z0-9_-]{4,}/);
}

async function failure(client: HostingClient): Promise<unknown> {
  return client.listApps().then(
    () => {
      throw new Error("expected a failure");
    },
    (e: unknown) => e,
  );
}

describe.each(Object.entries(TOKENS))("token %s", (_kind, token) => {
  describe.each(Object.entries(ECHO_MODES))("echo: %s", (_mode, echo) => {
    test.each(STATUSES)("status %i", async (status, cls) => {
      const reply = (req: IncomingMessage, res: ServerResponse) => {
        const e = echo(String(req.headers.authorization));
        res.writeHead(status, {
          "content-type": e.html ? "text/html" : "application/json",
          ...e.headers,
        });
        res.end(e.body);
      };
      const fx = await fixtureServer([reply]);
      const client = new HostingClient({
        apiUrl: fx.url,
        token,
        maxRetries: 0,
        throttleTimeoutMs: 0,
        // Each case its own limiter: a 429 here must not pause a later case that gets the same
        // port (the shared limiter is keyed on URL and token, and 0 fails any pause at once).
        limiter: false,
      });
      try {
        const err = await failure(client);
        expect(err).toBeInstanceOf(cls);
        expectClean(err, token);
        expect(fx.seen[0].headers.authorization).toBe(`Bearer ${token}`);
      } finally {
        await client.close();
        await fx.close();
      }
    });
  });

  /** A raw TCP server that answers with the bytes `write` gives it, then hangs up. */
  async function rawServer(
    write: (auth: string) => string,
  ): Promise<{ url: string; server: Server }> {
    const server = createTcpServer((sock) => {
      let head = "";
      sock.on("data", (d: Buffer) => {
        head += d.toString("latin1");
        if (!head.includes("\r\n\r\n")) return;
        const auth = /authorization: (.*)\r\n/i.exec(head)?.[1] ?? "";
        sock.end(write(auth));
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
  }

  test.each([
    [
      "a malformed reply echoing the header (parser error)",
      (a: string) => `HTTP/1.1 200 OK\r\nX-Echo: ${a}\u0000\r\n\r\n`,
    ],
    [
      "a reply cut off after echoing the header",
      (a: string) => `HTTP/1.1 200 OK\r\nContent-Length: 500\r\n\r\n{"echo":"${a}`,
    ],
    ["an answer that is not HTTP at all", (a: string) => `${a}\r\n`],
  ])("socket failure: %s keeps the token out of the cause chain", async (_name, write) => {
    const { url, server } = await rawServer(write);
    const client = new HostingClient({
      apiUrl: url,
      token,
      maxRetries: 0,
      throttleTimeoutMs: 0,
      limiter: false,
    });
    try {
      const err = await failure(client);
      expect(err).toBeInstanceOf(HostingConnectionError);
      expect((err as Error).cause).toBeDefined();
      expectClean(err, token);
    } finally {
      await client.close();
      await new Promise((r) => server.close(r));
    }
  });
});
