import { createHash } from "node:crypto";
import type { Readable } from "node:stream";
import type { Manifest } from "../../api/manifest";
import { byName, listSource, type SourceFile } from "./source-files";

/** A file as the content hash sees it. */
export interface HashedFile {
  /** Relative path with `/` separators. */
  name: string;
  /** 0o644 or 0o755. */
  mode: number;
  /** sha256 of the file's bytes, hex. */
  sha256: string;
}

/**
 * The source hash: sha256 over a canonical listing of what is packed, one line per file in
 * sorted path order, `<mode in octal> <sha256 of the bytes> <path>\n`, after a format line. The
 * manifest is one of the files, so settings count too. No compressed byte goes in.
 */
export function contentHash(files: readonly HashedFile[]): string {
  const h = createHash("sha256").update("pulumi-hosting source v1\n");
  for (const f of [...files].sort(byName))
    h.update(`${f.mode.toString(8)} ${f.sha256} ${f.name}\n`);
  return h.digest("hex");
}

/**
 * Files read at once by one hash: enough to keep the disk and the hash busy while small files
 * open and close, few enough that a deployment of many Apps holds few descriptors and buffers.
 */
const FILES_AT_ONCE = 8;
const STOPPED = new Error("stopped: another file of the source failed");

/**
 * The content hash of a source without packing it: every file listed as the archive would hold
 * it, read in chunks and hashed, a few files at a time, starting while the folder is still being
 * walked. No compression runs.
 */
export async function hashSource(source: string, manifest: Manifest): Promise<string> {
  const digests = new Map<SourceFile, Promise<string>>();
  let running = 0;
  let stopped = false;
  let firstError: unknown;
  const waiting: Array<() => void> = [];
  const schedule = (f: SourceFile) => {
    const p = (async () => {
      if (running >= FILES_AT_ONCE) await new Promise<void>((r) => waiting.push(r));
      else running++;
      try {
        if (stopped) throw STOPPED; // another file failed: the hash is not needed
        return await digestOf(f);
      } finally {
        // A finished read hands its slot straight to the next file.
        const next = waiting.shift();
        if (next) next();
        else running--;
      }
    })();
    p.catch((err: unknown) => {
      stopped = true;
      if (err !== STOPPED) firstError ??= err;
    });
    digests.set(f, p);
  };
  const settle = () => Promise.allSettled(digests.values());
  let listing;
  try {
    listing = await listSource(source, manifest, schedule);
  } catch (err) {
    stopped = true;
    await settle();
    throw err;
  }
  try {
    for (const f of listing.files) if (!digests.has(f)) schedule(f);
    // Every read is done before the source is closed.
    await settle();
    if (stopped) throw firstError;
    const hashed: HashedFile[] = [];
    for (const f of listing.files) {
      hashed.push({ name: f.name, mode: f.mode, sha256: await digests.get(f)! });
    }
    return contentHash(hashed);
  } finally {
    listing.close();
  }
}

function digestOf(f: SourceFile): Promise<string> {
  return f.digest ? f.digest() : f.open().then(digestStream);
}

async function digestStream(s: Readable): Promise<string> {
  const h = createHash("sha256");
  for await (const c of s) h.update(c as Buffer);
  return h.digest("hex");
}
