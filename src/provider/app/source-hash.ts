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

/**
 * The content hash of a source without packing it: every file listed as the archive would hold
 * it, read in chunks and hashed, a few files at a time. No compression runs.
 */
export async function hashSource(source: string, manifest: Manifest): Promise<string> {
  const listing = await listSource(source, manifest);
  try {
    const hashes = new Array<string>(listing.files.length);
    let next = 0;
    const worker = async () => {
      while (next < listing.files.length) {
        const i = next++;
        try {
          hashes[i] = await digestOf(listing.files[i]);
        } catch (err) {
          next = listing.files.length; // the others stop at their current file
          throw err;
        }
      }
    };
    // Every worker is done before the source is closed; the first failure is the answer.
    const done = await Promise.allSettled(Array.from({ length: FILES_AT_ONCE }, worker));
    const failed = done.find((d) => d.status === "rejected");
    if (failed) throw failed.reason;
    return contentHash(
      listing.files.map((f, i) => ({ name: f.name, mode: f.mode, sha256: hashes[i] })),
    );
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
