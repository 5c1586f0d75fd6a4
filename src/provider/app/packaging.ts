import { createHash } from "node:crypto";
import { open, rm } from "node:fs/promises";
import { join } from "node:path";
import { once } from "node:events";
import type { Readable } from "node:stream";
import { setTimeout as sleep } from "node:timers/promises";
import yazl from "yazl";
import type { Manifest } from "./manifest";
import { listSource } from "./source-files";
import { contentHash, contentHashV1, type HashedFile } from "./source-hash";
import { archiveFolder } from "./temp-archives";
import { writeZip } from "./zip-writer";

export interface PackagedSource {
  zipPath: string;
  /**
   * sha256 of the content, never of the compressed bytes (zlib's output differs between Node
   * builds and CPUs): see contentHash. The same files, modes and settings give the same hash.
   */
  sha256: string;
  /** The same content in the hash format of 0.1.0's states (see contentHashV1). */
  sha256V1: string | undefined;
  bytes: number;
  files: number;
}

// DOS timestamps are local time: build the date from local parts so every machine writes 1980-01-01.
const FIXED_MTIME = new Date(1980, 0, 1, 0, 0, 0);
const entryOptions = (mode: number) => ({
  mtime: FIXED_MTIME,
  mode: 0o100000 | mode,
  forceDosTimestamp: true,
});

/**
 * Packs a directory or a .zip into a deterministic archive on disk with the manifest at its
 * root: sorted entries, fixed timestamps, modes reduced to 644/755 (see source-files.ts for what
 * is left out). Memory and open files stay bounded whatever the source (see zip-writer.ts): a
 * few files are read and compressed ahead, a large one streams, and each file's bytes are
 * hashed as they are packed, so the hash is of exactly what is uploaded.
 */
export async function packageSource(source: string, manifest: Manifest): Promise<PackagedSource> {
  const listing = await listSource(source, manifest);
  try {
    const dir = await archiveFolder();
    const zipPath = join(dir, "source.zip");
    try {
      const out = await open(zipPath, "wx");
      let written;
      try {
        written = await writeZip(listing.files, out);
      } finally {
        await out.close();
      }
      const hashed: HashedFile[] = listing.files.map((f, i) => ({
        name: f.name,
        mode: f.mode,
        sha256: written.sha256[i],
      }));
      return {
        zipPath,
        sha256: contentHash(hashed),
        sha256V1: contentHashV1(hashed),
        bytes: written.bytes,
        files: listing.files.length,
      };
    } catch (err) {
      await rm(dir, { recursive: true, force: true }).catch(() => undefined);
      throw err;
    }
  } finally {
    listing.close();
  }
}

/**
 * sha256 of the archive the builds before the content hash packed, whose hash their states hold
 * as sourceHash: a zip's entries added as streams, everything else as whole buffers (sizes in
 * the local headers). Only a check whose old state may hold such a hash asks for it. Files are
 * read one at a time, each once the previous one is written, and the bytes go to a hash only.
 */
export async function legacyArchiveHash(source: string, manifest: Manifest): Promise<string> {
  const listing = await listSource(source, manifest);
  try {
    const zip = new yazl.ZipFile();
    const archive = createHash("sha256");
    let error: unknown;
    zip.on("error", (e) => (error ??= e));
    zip.outputStream.on("data", (c: Buffer) => archive.update(c));
    const ended = new Promise<void>((ok, fail) => {
      zip.outputStream.on("end", ok).on("error", fail);
      zip.on("error", fail);
    });
    ended.catch(() => undefined); // awaited below, after the last entry
    for (const f of listing.files) {
      const s = await f.open();
      if (f.fromZip) zip.addReadStream(s, f.name, entryOptions(f.mode));
      else zip.addBuffer(await whole(s), f.name, entryOptions(f.mode));
      await entriesWritten(zip, () => error);
      if (error) throw error;
    }
    zip.end();
    await ended;
    return archive.digest("hex");
  } finally {
    listing.close();
  }
}

async function whole(s: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of s) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

/** yazl's entry states (index.js): 3 is FILE_DATA_DONE. */
const FILE_DATA_DONE = 3;

/** Until every entry added so far is in the output (or the zip failed). */
async function entriesWritten(zip: yazl.ZipFile, failed: () => unknown): Promise<void> {
  const entries = (zip as unknown as { entries?: Array<{ state: number }> }).entries;
  if (!Array.isArray(entries)) return; // another yazl: no bound, same bytes
  while (!failed() && entries.some((e) => e.state < FILE_DATA_DONE)) {
    // An entry is marked done right after its bytes pass; the timer covers a quiet stretch.
    await Promise.race([once(zip.outputStream, "data"), sleep(5)]);
  }
}
