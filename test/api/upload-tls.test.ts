import { execFile } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:https";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { ARCHIVE_CHUNK_BYTES } from "../../src/api/archive-chunks";

/*
 * The real API is https. A TLS socket's write high-water mark is 16 KiB and its writes complete
 * only once the encrypted bytes went to the TCP socket, so this is where a buffer refilled too
 * early (src/api/archive-chunks.ts) would show. A server with a self-signed certificate reads the
 * upload in small pieces with pauses and hashes the file part; the client runs on the built
 * package in a child process that trusts the certificate through NODE_EXTRA_CA_CERTS (the client
 * has no CA option) and checks, at every refill, that the socket holds nothing unwritten.
 */

const ROOT = join(__dirname, "..", "..");
// A self-signed certificate for 127.0.0.1 (valid until 2126), made for this test only.
const TLS_KEY = join(ROOT, "test", "fixtures", "tls", "key.pem");
const TLS_CERT = join(ROOT, "test", "fixtures", "tls", "cert.pem");
const run = promisify(execFile);

let dir: string;
let server: Server;
let url: string;
const sockets = new Set<Socket>();

/** Reads 1 KiB at a time, stops for a while once per request, then answers with the hash. */
function slowSink(req: IncomingMessage, res: ServerResponse): void {
  const parts: Buffer[] = [];
  let got = 0;
  let stalled = false;
  let waiting = false; // during the stall, 'readable' must not restart reading
  const pump = () => {
    if (waiting) return;
    for (let i = 0; i < 64; i++) {
      const c = req.read(Math.min(1024, req.readableLength || 1024)) as Buffer | null;
      if (c === null) return; // 'readable' calls again
      parts.push(c);
      got += c.length;
      if (!stalled && got >= ARCHIVE_CHUNK_BYTES) {
        stalled = waiting = true;
        // The client's writes back up meanwhile.
        setTimeout(() => {
          waiting = false;
          pump();
        }, 300);
        return;
      }
    }
    setImmediate(pump);
  };
  req.on("readable", pump);
  req.on("end", () => {
    const body = Buffer.concat(parts);
    const boundary = /boundary=(.+)$/.exec(req.headers["content-type"] ?? "")![1];
    const start = body.indexOf("\r\n\r\n", body.indexOf('name="project"')) + 4;
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    const whole = body.subarray(body.length - tail.length).equals(tail);
    const file = body.subarray(start, body.length - tail.length);
    res.setHeader("content-type", "application/json");
    res.end(
      JSON.stringify({
        id: "app",
        whole,
        bytes: file.length,
        sha256: createHash("sha256").update(file).digest("hex"),
      }),
    );
  });
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "hosting-tls-"));
  server = createServer({ key: await readFile(TLS_KEY), cert: await readFile(TLS_CERT) }, slowSink);
  server.on("secureConnection", (s: Socket) => sockets.add(s));
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const s of sockets) s.destroy();
  await new Promise<void>((r) => server.close(() => r()));
  await rm(dir, { recursive: true, force: true });
});

/*
 * The child: wraps the reader (the built multipart.js calls it through the module's exports) to
 * look at the socket each time the next chunk is asked for, after a full one, i.e. right before
 * the buffer of the chunk before is refilled; then uploads every file given.
 */
const CHILD = `
  const diagnostics = require("node:diagnostics_channel");
  const chunks = require("./dist/api/archive-chunks");
  let socket;
  let refills = 0, early = 0, waited = 0;
  diagnostics.subscribe("undici:client:sendHeaders", (m) => { socket = m.socket; });
  diagnostics.subscribe("undici:request:bodyChunkSent", () => {
    if (socket.writableLength > 0) waited++;
  });
  const read = chunks.archiveChunks;
  chunks.archiveChunks = async function* (path, size) {
    for await (const chunk of read(path, size)) {
      yield chunk;
      if (chunk.length === chunks.ARCHIVE_CHUNK_BYTES) {
        refills++;
        if (socket.writableLength !== 0 || !socket.encrypted) early++;
      }
    }
  };
  const { HostingClient } = require("./dist/api");
  (async () => {
    const client = new HostingClient({ apiUrl: process.env.URL, token: "aaaa.bbbb.cccc" });
    const replies = [];
    for (const archivePath of process.argv.slice(1)) replies.push(await client.createApp({ archivePath }));
    await client.close();
    console.log(JSON.stringify({ replies, refills, early, waited }));
  })().catch((err) => { console.error(err); process.exit(1); });`;

test("archives around chunk and TLS record sizes arrive byte for byte over https", async () => {
  const K = ARCHIVE_CHUNK_BYTES;
  const sizes = [1, 16383, 16385, K - 1, K, K + 1, 3 * K + 5, 4 * 1024 * 1024 + 17];
  const files = await Promise.all(
    sizes.map(async (size) => {
      const bytes = randomBytes(size);
      const path = join(dir, `${size}.zip`);
      await writeFile(path, bytes);
      return { path, size, sha256: createHash("sha256").update(bytes).digest("hex") };
    }),
  );
  const { stdout } = await run(process.execPath, ["-e", CHILD, ...files.map((f) => f.path)], {
    cwd: ROOT,
    timeout: 30_000,
    env: { ...process.env, URL: url, NODE_EXTRA_CA_CERTS: TLS_CERT },
  });
  const out = JSON.parse(stdout) as {
    replies: { whole: boolean; bytes: number; sha256: string }[];
    refills: number;
    early: number;
    waited: number;
  };
  expect(out.replies).toEqual(
    files.map((f) => ({ id: "app", whole: true, bytes: f.size, sha256: f.sha256 })),
  );
  expect(out.refills).toBeGreaterThan(15);
  expect(out.early).toBe(0);
  expect(out.waited).toBeGreaterThan(0); // TLS writes did finish later than they were made
}, 45_000);
