import { createHash, randomBytes } from "node:crypto";
import diagnostics from "node:diagnostics_channel";
import { appendFile, mkdtemp, readdir, readlink, rm, truncate, writeFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HostingClient, HostingConnectionError, HostingInputError } from "../../src/api";
import { testIf } from "../helpers/test-if";

/*
 * Uploads (POST /apps) that go wrong halfway, against a real server on 127.0.0.1: the archive is
 * read into two reused buffers (src/api/archive-chunks.ts), so a retry must resend exact bytes, and
 * every failure must close the archive, say what happened, and leave no unhandled rejection.
 */

const TOKEN = "aaaa.bbbb.cccc";
const MiB = 1024 * 1024;

let dir: string;
const unhandled: unknown[] = [];
const onUnhandled = (err: unknown) => unhandled.push(err);
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "hosting-faults-"));
  process.on("unhandledRejection", onUnhandled);
});
afterAll(async () => {
  process.off("unhandledRejection", onUnhandled);
  await rm(dir, { recursive: true, force: true });
});
afterEach(() => expect(unhandled).toEqual([]));

async function archiveOf(size: number): Promise<{ path: string; sha256: string }> {
  const bytes = randomBytes(size);
  const path = join(dir, `${size}-${Math.random().toString(36).slice(2)}.zip`);
  await writeFile(path, bytes);
  return { path, sha256: createHash("sha256").update(bytes).digest("hex") };
}

/** How many of this process's descriptors are open on `path` (Linux). */
async function openOn(path: string): Promise<number> {
  const fds = await readdir("/proc/self/fd");
  const targets = await Promise.all(
    fds.map((fd) => readlink(`/proc/self/fd/${fd}`).catch(() => "")),
  );
  return targets.filter((t) => t === path).length;
}

/** The `project` part of a whole multipart body. */
function filePart(body: Buffer, contentType: string): Buffer {
  const boundary = /boundary=(.+)$/.exec(contentType)![1];
  const start = body.indexOf("\r\n\r\n", body.indexOf('name="project"')) + 4;
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  expect(body.subarray(body.length - tail.length).equals(tail)).toBe(true);
  return body.subarray(start, body.length - tail.length);
}

interface Received {
  /** Bytes of the body read before the request ended or was dropped. */
  bytes: number;
  /** sha256 of the file part, for a body that arrived whole. */
  sha256?: string;
}

type Policy = (attempt: number, req: IncomingMessage, res: ServerResponse, got: Received) => void;

/** Reads the whole body in small pieces, then answers 200 with the file part's sha256. */
function readAndAnswer(req: IncomingMessage, res: ServerResponse, got: Received): void {
  const parts: Buffer[] = [];
  req.on("data", (c: Buffer) => {
    parts.push(c);
    got.bytes += c.length;
  });
  req.on("end", () => {
    const file = filePart(Buffer.concat(parts), req.headers["content-type"]!);
    got.sha256 = createHash("sha256").update(file).digest("hex");
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify({ id: `app-${got.sha256.slice(0, 8)}`, sha256: got.sha256 }));
  });
}

async function sink(policy: Policy) {
  const attempts: Received[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    const got: Received = { bytes: 0 };
    attempts.push(got);
    req.on("error", () => undefined); // a dropped upload is expected here
    policy(attempts.length - 1, req, res, got);
  });
  server.on("connection", (s: Socket) => sockets.add(s));
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const client = new HostingClient({
    apiUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    token: TOKEN,
    maxRetries: 2,
    timeoutMs: 10_000, // a hang fails the test well before jest's limit
  });
  return {
    attempts,
    client,
    close: async () => {
      await client.close();
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

const linux = testIf(
  process.platform === "linux",
  "it counts the open files in /proc/self/fd, which only Linux has",
);

linux(
  "a connection reset mid-body is not repeated, may have taken effect, closes the archive",
  async () => {
    const archive = await archiveOf(6 * MiB + 5);
    const s = await sink((_n, req, _res, got) => {
      req.on("data", (c: Buffer) => {
        got.bytes += c.length;
        if (got.bytes >= MiB) req.socket.resetAndDestroy();
      });
    });
    try {
      const err = await s.client.createApp({ archivePath: archive.path }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(HostingConnectionError);
      expect(err).toMatchObject({ code: "HOSTING_CONNECTION_LOST", mayHaveTakenEffect: true });
      expect((err as Error).message).toMatch(/call listApps\(\)/);
      expect(s.attempts).toHaveLength(1); // a POST that reached the service is not resent
      expect(await openOn(archive.path)).toBe(0);
    } finally {
      await s.close();
    }
  },
);

linux(
  "a 429 answered before the body was read is retried, and the retry's bytes are exact",
  async () => {
    const archive = await archiveOf(5 * MiB + 3);
    const s = await sink((n, req, res, got) => {
      if (n > 0) return readAndAnswer(req, res, got);
      // Answer at once and read nothing: undici drops the socket while still writing the body.
      res.writeHead(429, { "retry-after": "0", "content-type": "application/json" });
      res.end(JSON.stringify({ error: "slow down" }));
    });
    try {
      const reply = (await s.client.createApp({ archivePath: archive.path })) as {
        sha256?: string;
      };
      expect(s.attempts).toHaveLength(2);
      expect(reply.sha256).toBe(archive.sha256);
      expect(s.attempts[1].sha256).toBe(archive.sha256);
      expect(await openOn(archive.path)).toBe(0);
    } finally {
      await s.close();
    }
  },
);

/**
 * Holds the first request unread until the client's socket has backed up (so the reader is
 * between chunks, with more to read), runs `change` on the archive, then reads again.
 */
async function changeMidUpload(size: number, change: (path: string) => Promise<void>) {
  const archive = await archiveOf(size);
  let resume: (() => void) | undefined;
  const s = await sink((_n, req, res, got) => {
    req.pause();
    resume = () => {
      readAndAnswer(req, res, got);
      req.resume(); // a 'data' listener alone does not restart a paused stream
    };
  });
  let socket: Socket | undefined;
  let changed: Promise<void> | undefined;
  const onHeaders = (m: unknown) => {
    socket = (m as { socket: Socket }).socket;
  };
  const onChunk = () => {
    if (changed || !socket || socket.writableLength === 0) return;
    changed = change(archive.path).then(() => resume!());
  };
  diagnostics.subscribe("undici:client:sendHeaders", onHeaders);
  diagnostics.subscribe("undici:request:bodyChunkSent", onChunk);
  try {
    const err = await s.client.createApp({ archivePath: archive.path }).catch((e: unknown) => e);
    expect(changed).toBeDefined(); // the socket did back up, so the change came mid-upload
    await changed;
    return { err, archive, attempts: s.attempts };
  } finally {
    diagnostics.unsubscribe("undici:client:sendHeaders", onHeaders);
    diagnostics.unsubscribe("undici:request:bodyChunkSent", onChunk);
    await s.close();
  }
}

linux.each([
  ["truncated", (path: string) => truncate(path, 3 * MiB)],
  ["grown", (path: string) => appendFile(path, "more")],
])(
  "an archive %s mid-upload fails as bad input, not as a lost reply, and is not resent",
  async (_label, change) => {
    const { err, archive, attempts } = await changeMidUpload(16 * MiB, change);
    expect(err).toBeInstanceOf(HostingInputError);
    expect(err).toMatchObject({
      code: "HOSTING_INVALID_INPUT",
      property: "archivePath",
      mayHaveTakenEffect: false,
    });
    expect((err as Error).message).toMatch(/changed size while it was being uploaded/);
    expect((err as Error).message).not.toMatch(/may have taken effect/);
    expect(attempts).toHaveLength(1);
    expect(attempts[0].sha256).toBeUndefined(); // the service never got a whole body
    expect(await openOn(archive.path)).toBe(0);
  },
);
