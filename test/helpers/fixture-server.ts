import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface Recorded {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
}

type Reply = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * A tiny real HTTP server on 127.0.0.1:0 for what the emulator cannot say (odd bodies, headers):
 * each request takes the next scripted reply (the last one repeats) and is recorded.
 */
export async function fixtureServer(replies: Reply[]) {
  const seen: Recorded[] = [];
  const server = createServer((req, res) => {
    seen.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers });
    req.resume();
    req.on("end", () => replies[Math.min(seen.length - 1, replies.length - 1)](req, res));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

export const json =
  (status: number, body: unknown, headers: Record<string, string> = {}): Reply =>
  (_req, res) => {
    res.writeHead(status, { "content-type": "application/json", ...headers });
    res.end(JSON.stringify(body));
  };

export const text =
  (status: number, body: string, headers: Record<string, string> = {}): Reply =>
  (_req, res) => {
    res.writeHead(status, { "content-type": "text/html", ...headers });
    res.end(body);
  };

/** A syntactically valid JWT that no server accepts. */
export const FAKE_TOKEN =
  "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ0ZXN0LXVzZXIifQ.c2lnbmF0dXJlLW9mLWEtZmFrZS10b2tlbg";
