import { open, type FileHandle } from "node:fs/promises";
import { HostingInputError } from "./errors";

/**
 * Bytes per chunk. It must be at least the socket's write high-water mark (undici connects with
 * 64 KiB, TLS with 16 KiB), so that every full chunk makes `socket.write` return false; see below.
 */
export const ARCHIVE_CHUNK_BYTES = 256 * 1024;

/**
 * The archive's bytes as chunks read into two buffers that are reused for the whole file.
 *
 * Why reuse: a fresh Buffer per read is freed only by a GC, and V8 waits for 32 MiB of young
 * ArrayBuffers before it runs one, so a large upload held 32 MiB of dead chunks at any time.
 *
 * Why reuse is safe: this is meant to be undici's request body as an async iterable. Its
 * `writeIterable` writes each chunk with `socket.write`; a chunk of at least the high-water mark
 * makes that return false, and undici then waits for the socket's 'drain' (or 'close') before it
 * asks for the next chunk. 'drain' comes only when the socket's `writableLength` is back to 0,
 * i.e. every write's callback has run and libuv holds no pointer into any chunk; after 'close'
 * the handle is gone. So when the next chunk is asked for, the one before it is free, and the
 * read-ahead below refills exactly that buffer. The last chunk may be shorter, but nothing is
 * read after it. Each attempt makes its own buffers, so a retry never touches a dying socket's.
 * test/api/upload-integrity.test.ts checks both the bytes that arrive and, at every refill, that
 * the socket holds nothing unwritten, so an undici that asked ahead would fail it.
 * A subscriber to `undici:request:bodyChunkSent` gets these buffers too: to keep one, copy it.
 */
export async function* archiveChunks(path: string, size: number): AsyncGenerator<Buffer> {
  const file = await open(path, "r").catch((err: unknown) => {
    throw unreadable(path, err);
  });
  // No larger than the file, and a second one only when there is a second chunk: two 256 KiB
  // zero-filled buffers per upload of a 1 KiB archive were most of a bulk create's garbage. A
  // file of one chunk is read once, so its buffer is never refilled while the socket holds it.
  const one = Math.min(ARCHIVE_CHUNK_BYTES, size);
  const buffers = [Buffer.allocUnsafeSlow(one), Buffer.allocUnsafeSlow(size > one ? one : 0)];
  let pending: Promise<number> | undefined;
  try {
    let position = 0;
    let turn = 0;
    pending = fill(file, path, buffers[turn], position, size);
    while (pending) {
      const n = await pending;
      const chunk = buffers[turn].subarray(0, n);
      position += n;
      turn ^= 1;
      // The other buffer held the chunk before this one, which the consumer has finished with.
      pending = position < size ? fill(file, path, buffers[turn], position, size) : undefined;
      if (!pending && (await file.stat()).size !== size) throw changed(path, size);
      yield chunk;
    }
  } finally {
    // Not before a read in flight is over: it writes into our buffer and uses the handle.
    await pending?.catch(() => undefined);
    await file.close();
  }
}

/** Reads the next chunk, whole unless it is the file's last; resolves to its length. */
function fill(
  file: FileHandle,
  path: string,
  into: Buffer,
  position: number,
  size: number,
): Promise<number> {
  const read = (async () => {
    const want = Math.min(into.length, size - position);
    let got = 0;
    while (got < want) {
      const { bytesRead } = await file
        .read(into, got, want - got, position + got)
        .catch((err: unknown) => {
          throw unreadable(path, err);
        });
      if (bytesRead === 0) throw changed(path, size);
      got += bytesRead;
    }
    return got;
  })();
  // Handled here too: it may fail while the generator waits at a `yield`; it is awaited later.
  read.catch(() => undefined);
  return read;
}

/*
 * Input errors, not network ones: the transport then neither retries nor says the request may have
 * taken effect, which it cannot have, as undici stops the body before its end.
 */
const CUT_SHORT = "the upload stopped before its end, so the service cannot have acted on it";

function changed(path: string, size: number): HostingInputError {
  return new HostingInputError(
    "archivePath",
    `archivePath ${JSON.stringify(path)} changed size while it was being uploaded (it had ` +
      `${size} bytes when the upload began); ${CUT_SHORT}: upload it again once it is complete`,
  );
}

function unreadable(path: string, err: unknown): HostingInputError {
  const why = err instanceof Error ? err.message : String(err);
  return new HostingInputError(
    "archivePath",
    `archivePath ${JSON.stringify(path)} could not be read while it was being uploaded (${why}); ` +
      CUT_SHORT,
  );
}
