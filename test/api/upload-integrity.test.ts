import { createHash, randomBytes } from "node:crypto";
import diagnostics from "node:diagnostics_channel";
import { createWriteStream } from "node:fs";
import { mkdtemp, readFile, stat } from "node:fs/promises";
import { connect, createServer, type AddressInfo, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Readable } from "node:stream";
import { Pool } from "undici";
import yazl from "yazl";
import { ARCHIVE_CHUNK_BYTES } from "../../src/api/archive-chunks";
import { archiveForm } from "../../src/api/multipart";
import { useEmulator } from "../helpers/emulator";

/*
 * The archive is read into two reused buffers (src/api/archive-chunks.ts), so a buffer refilled
 * too early would send wrong bytes. The emulator keeps the sha256 of every archive it receives.
 */

const env = useEmulator({ setupDelayMs: 0 });
afterEach(() => env.emu.setFaults({}));

let seq = 0;

/** A stored (uncompressed) zip of exactly `size` bytes, padded with the zip comment. */
async function zipOfSize(size: number): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "hosting-integrity-"));
  const name = `integrity-${++seq}`;
  const blob = randomBytes(Math.max(0, size - 400));
  const write = async (file: string, comment: string) => {
    const zip = new yazl.ZipFile();
    const manifest = JSON.stringify({ name, subdomain: name });
    zip.addBuffer(Buffer.from(manifest), "hosting.json", { compress: false });
    zip.addBuffer(blob, "blob.bin", { compress: false });
    zip.end({ comment, forceZip64Format: false });
    await new Promise<void>((resolve, reject) => {
      zip.outputStream.pipe(createWriteStream(file)).on("close", resolve).on("error", reject);
    });
    return (await stat(file)).size;
  };
  const file = join(dir, "app.zip");
  const bare = await write(file, "");
  expect(size - bare).toBeGreaterThanOrEqual(0);
  expect(await write(file, "x".repeat(size - bare))).toBe(size);
  return file;
}

const sha256 = async (file: string) =>
  createHash("sha256")
    .update(await readFile(file))
    .digest("hex");

function received(id: string) {
  const app = env.emu.world.apps.find((a) => a.id === id);
  return { sha256: app?.archive_sha256, bytes: app?.archive_bytes };
}

test.each([
  ["smaller than a chunk", 1000],
  ["exactly one chunk", ARCHIVE_CHUNK_BYTES],
  ["one chunk and a byte", ARCHIVE_CHUNK_BYTES + 1],
  ["three chunks less a byte", 3 * ARCHIVE_CHUNK_BYTES - 1],
  ["8 MiB and some", 8 * 1024 * 1024 + 17],
])("an archive %s arrives byte for byte", async (_label, size) => {
  const archivePath = await zipOfSize(size);
  const { id } = await env.client().createApp({ archivePath, env: { GREETING: "grüße" } });
  expect(received(id)).toEqual({ sha256: await sha256(archivePath), bytes: size });
});

test("a retry after 429 sends the whole archive again, intact", async () => {
  const archivePath = await zipOfSize(4 * 1024 * 1024 + 3);
  env.emu.resetStats();
  env.emu.setFaults({
    rules: [{ route: "POST /apps", times: 1, status: 429, retryAfterSeconds: 0 }],
  });
  const { id } = await env.client().createApp({ archivePath });
  expect(env.emu.stats().requests["POST /apps"]).toBe(2);
  expect(received(id)).toEqual({
    sha256: await sha256(archivePath),
    bytes: (await stat(archivePath)).size,
  });
});

/** A TCP proxy that reads nothing from its clients until `open()`: their writes back up. */
async function gatedProxy(target: string) {
  const { hostname, port } = new URL(target);
  const sockets = new Set<Socket>();
  const waiting: Socket[] = [];
  let opened = false;
  const wire = (down: Socket) => {
    const up = connect(Number(port), hostname);
    sockets.add(up);
    down.pipe(up);
    up.pipe(down);
    const drop = () => {
      down.destroy();
      up.destroy();
    };
    down.on("error", drop).on("close", drop);
    up.on("error", drop).on("close", drop);
  };
  // pauseOnConnect: the kernel holds what the client sends until `wire` starts reading.
  const server = createServer({ pauseOnConnect: true }, (down) => {
    sockets.add(down);
    if (opened) wire(down);
    else waiting.push(down);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    open: () => {
      opened = true;
      waiting.splice(0).forEach(wire);
    },
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}

test("a buffer is refilled only once the socket has written everything it was given", async () => {
  const archivePath = await zipOfSize(32 * 1024 * 1024);
  const size = (await stat(archivePath)).size;
  const proxy = await gatedProxy(env.emu.url);
  const pool = new Pool(proxy.url);
  let socket: Socket | undefined;
  let backedUp = false; // a write that did not finish at once: the case that matters
  let refills = 0;
  let early = 0;
  const onHeaders = (m: unknown) => {
    socket = (m as { socket: Socket }).socket;
  };
  const onChunk = () => {
    if (socket && socket.writableLength > 0 && !backedUp) {
      backedUp = true;
      proxy.open();
    }
  };
  diagnostics.subscribe("undici:client:sendHeaders", onHeaders);
  diagnostics.subscribe("undici:request:bodyChunkSent", onChunk);
  try {
    const { body, headers } = archiveForm(archivePath, size, "A=1\n");
    // undici asks for the next chunk; the reader is about to refill the buffer before last.
    async function* checked() {
      for await (const chunk of body) {
        yield chunk;
        if (chunk.length === ARCHIVE_CHUNK_BYTES) {
          refills++;
          if (socket?.writableLength !== 0) early++;
        }
      }
      proxy.open(); // in case nothing backed up, so that the request still ends
    }
    const res = await pool.request({
      method: "POST",
      path: "/apps",
      headers: { ...headers, authorization: `Bearer ${env.emu.issueToken()}` },
      body: checked() as unknown as Readable,
    });
    const reply = (await res.body.json()) as { id: string };
    expect(res.statusCode).toBe(200);
    expect(backedUp).toBe(true);
    expect(refills).toBeGreaterThan(100);
    expect(early).toBe(0);
    expect(received(reply.id)).toEqual({ sha256: await sha256(archivePath), bytes: size });
  } finally {
    diagnostics.unsubscribe("undici:client:sendHeaders", onHeaders);
    diagnostics.unsubscribe("undici:request:bodyChunkSent", onChunk);
    await pool.close();
    await proxy.close();
  }
});
