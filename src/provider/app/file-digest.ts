import { close as fsClose, constants, fstat, open as fsOpen, read as fsRead } from "node:fs";
import { open, type FileHandle } from "node:fs/promises";
import { createHash } from "node:crypto";
import { HostingInputError } from "../../api/wire";

/*
 * Reading one file of a folder source: only a file the walk saw as regular (lstat) is opened, with
 * O_NONBLOCK (a FIFO swapped in since never blocks the open), and fstat holds it to what the walk
 * saw. `digestFile` is the one place a file's bytes are hashed: a cache of hashes keyed by path
 * and stat can sit in front of it.
 */

/** What the walk saw of a file, held to when it is read. */
export interface Listed {
  dev: number;
  ino: number;
  size: number;
  mtimeMs: number;
}

export const unreadable = (shown: string, err: unknown) =>
  new HostingInputError(
    "source",
    `source/${shown} cannot be read (${(err as NodeJS.ErrnoException).code ?? String(err)}); ` +
      "make it readable or list it in .hostingignore",
  );

const moved = (shown: string) =>
  new HostingInputError(
    "source",
    `source/${shown} changed while the source was read; run again once nothing writes to it`,
  );

const notRegular = (shown: string) =>
  new HostingInputError(
    "source",
    `source/${shown} stopped being a regular file while the source was read; run again`,
  );

/** Opens a file the walk saw as a regular file; refuses it if it no longer is one. */
export async function openRegular(abs: string, shown: string): Promise<FileHandle> {
  let fh: FileHandle;
  try {
    fh = await open(abs, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (err) {
    throw unreadable(shown, err);
  }
  const info = await fh.stat().catch((err: unknown) => {
    void fh.close();
    throw unreadable(shown, err);
  });
  if (!info.isFile()) {
    await fh.close();
    throw notRegular(shown);
  }
  return fh;
}

/** Per-read buffer of digestFile: large enough that a big file costs few calls. */
const READ_CHUNK = 1 << 18;
/**
 * Read buffers kept for the next file: a check reads thousands of files, and a fresh buffer each
 * (garbage the collector frees late) grew the process by tens of MB.
 */
const spare: Buffer[] = [];
const SPARE_MAX = 16;

/**
 * sha256 (hex) of one file's bytes, given its path and what the walk saw of it, read in chunks
 * (no whole file in memory). See readListed.
 */
export function digestFile(abs: string, shown: string, listed: Listed): Promise<string> {
  const h = createHash("sha256");
  return readListed(abs, shown, listed, (chunk) => h.update(chunk)).then(() => h.digest("hex"));
}

/**
 * A file's bytes in one buffer, held to what the walk saw as digestFile holds them: for the
 * packer's small files, which a stream per file made cost more than their bytes.
 */
export function readWholeFile(abs: string, shown: string, listed: Listed): Promise<Buffer> {
  const out = Buffer.allocUnsafe(listed.size);
  let total = 0;
  // Bytes past the listed size are not kept: readListed refuses such a file once it is read.
  return readListed(abs, shown, listed, (chunk) => {
    total += chunk.copy(out, total);
  }).then(() => out);
}

/**
 * Reads one file in chunks, each handed to `take` (valid only during the call), with the
 * callback API: a small file costs open, fstat, read, fstat and close, where the promise API
 * cost several times that. The first fstat refuses, before any read, a file that stopped being
 * regular (a FIFO swapped in) or is not the one the walk saw (device and inode); the last holds
 * the file to the walk: one whose size or mtime moved is refused, naming it, and reading stops
 * past the listed size.
 */
function readListed(
  abs: string,
  shown: string,
  listed: Listed,
  take: (chunk: Buffer) => void,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const buf = spare.pop() ?? Buffer.allocUnsafe(READ_CHUNK);
    let returned = false;
    const done = () => {
      if (!returned && spare.length < SPARE_MAX) spare.push(buf);
      returned = true;
    };
    let total = 0;
    let fd = -1;
    const fail = (err: unknown) => {
      const e = err instanceof HostingInputError ? err : unreadable(shown, err);
      done();
      if (fd < 0) reject(e);
      else fsClose(fd, () => reject(e));
    };
    const check = () =>
      fstat(fd, (err, now) => {
        if (err) return fail(err);
        if (!now.isFile() || total !== listed.size || now.size !== listed.size)
          return fail(moved(shown));
        if (now.mtimeMs !== listed.mtimeMs) return fail(moved(shown));
        const closing = fd;
        fd = -1; // closed, even if close fails: that number may be another file's by then
        fsClose(closing, (e) => (e ? fail(e) : (done(), resolve())));
      });
    const next = () =>
      fsRead(fd, buf, 0, buf.length, null, (err, n) => {
        if (err) return fail(err);
        take(buf.subarray(0, n));
        total += n;
        // A short read is the end once the listed size is reached; past it, the file grew.
        if (n === 0 || total > listed.size || (n < buf.length && total >= listed.size)) {
          return check();
        }
        next();
      });
    fsOpen(abs, constants.O_RDONLY | constants.O_NONBLOCK, (err, opened) => {
      if (err) return fail(err);
      fd = opened;
      fstat(fd, (e, info) => {
        if (e) return fail(e);
        // Checked before the first read: a FIFO or device swapped in is never read from.
        if (!info.isFile()) return fail(notRegular(shown));
        // Another file than the walk stamped (a link flipped, a file renamed over), though of
        // the same size and mtime: its bytes would be kept under the other's stamp.
        if (info.dev !== listed.dev || info.ino !== listed.ino) return fail(moved(shown));
        next();
      });
    });
  });
}
