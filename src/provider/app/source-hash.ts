import { createHash } from "node:crypto";
import { realpath, stat } from "node:fs/promises";
import { resolve } from "node:path";
import type { Readable } from "node:stream";
import { wireAssumptions } from "../../api/wire";
import type { Manifest } from "./manifest";
import { byName, listSource, type SourceFile, type SourceListing } from "./source-files";
import { SourceIndex } from "./source-index";

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
 * The source hash (format v2): sha256 over a format line, then one record per file of the source
 * in sorted path order, `<mode in octal> <sha256 of the bytes> <byte length of the path>:<path>\n`.
 * The length makes every record end where it says, whatever the path holds (a newline included).
 * The manifest the App writes is left out: the settings in it are inputs, each compared on its
 * own, so pinning the value the platform reports (`ram: 512`) changes no hash. No compressed
 * byte goes in.
 */
export function contentHash(files: readonly HashedFile[]): string {
  const source = files.filter((f) => f.name !== wireAssumptions.manifestFileName);
  return hashRecords("v2", source, (f) => `${Buffer.byteLength(f.name)}:${f.name}`);
}

/**
 * The hash of format v1, which states of 0.1.0 hold: the same records with the bare path, the
 * manifest included. Only
 * a listing without a newline in any path has one (there, v1 records are unambiguous too).
 */
export function contentHashV1(files: readonly HashedFile[]): string | undefined {
  if (files.some((f) => f.name.includes("\n"))) return undefined;
  return hashRecords("v1", files, (f) => f.name);
}

function hashRecords(
  format: string,
  files: readonly HashedFile[],
  path: (f: HashedFile) => string,
): string {
  const h = createHash("sha256").update(`pulumi-hosting source ${format}\n`);
  for (const f of [...files].sort(byName))
    h.update(`${f.mode.toString(8)} ${f.sha256} ${path(f)}\n`);
  return h.digest("hex");
}

/*
 * The digests of the files of kept walks (walk-memo.ts). A walk is handed out again only while
 * stat data shows that nothing it saw changed, and only a walk with no file changed within the
 * racy window is kept; so a digest taken of one of its file objects holds as long as the object
 * is handed out. An App sharing a folder with the Apps checked before it then reads no file and
 * not the index. Entries go with their walk.
 */
const walkDigests = new WeakMap<SourceFile, string>();

/**
 * Files read at once by one hash: enough to keep the disk and the hash busy while small files
 * open and close, few enough that a deployment of many Apps holds few descriptors and buffers.
 */
const FILES_AT_ONCE = 8;

/**
 * The content hash of a source without packing it: every file listed as the archive would hold
 * it, read in chunks and hashed, a few files at a time, starting while the folder is still being
 * walked. No compression runs.
 */
export async function hashSource(source: string, manifest: Manifest): Promise<string> {
  return contentHash(await hashSourceFiles(source, manifest));
}

/**
 * Every file of a source with the hash of its bytes: what both hash formats are made from.
 * `vet` is shown the listing once the walk is done, and may refuse it (throw) before every file
 * is read.
 */
export async function hashSourceFiles(
  source: string,
  manifest: Manifest,
  vet?: (listing: SourceListing) => void,
): Promise<HashedFile[]> {
  // Opened at the first file without a digest from a kept walk: a check answered from kept walks
  // alone waits on nothing in the thread pool, where the creates' packing queues.
  let index: Promise<SourceIndex | undefined> | undefined;
  const fromWalk: SourceFile[] = [];
  const digestOf = async (f: SourceFile): Promise<string> => {
    // Only a folder's file has stat data to look it up by: the manifest and a zip's entries do not.
    if (!f.stamp) return readDigest(f);
    const known = walkDigests.get(f);
    if (known !== undefined) {
      fromWalk.push(f);
      return known;
    }
    const ix = await (index ??= indexOf(source));
    return ix ? ix.digest(f.name, f.stamp, () => readDigest(f)) : readDigest(f);
  };
  const hashes = new Map<SourceFile, string>();
  const queue: SourceFile[] = [];
  let listed = false;
  let failure: { err: unknown } | undefined;
  let wake: Array<() => void> = [];
  const nudge = () => {
    const w = wake;
    wake = [];
    w.forEach((r) => r());
  };
  // Workers take files as the walk finds them; an idle one sleeps until the next is found.
  const worker = async () => {
    for (;;) {
      const f = queue.pop();
      if (failure) return;
      if (f) {
        try {
          hashes.set(f, await digestOf(f));
        } catch (err) {
          failure ??= { err };
        }
      } else if (listed) return;
      else await new Promise<void>((r) => wake.push(r));
    }
  };
  const workers = Promise.all(Array.from({ length: FILES_AT_ONCE }, worker));
  const found = Object.assign(
    (f: SourceFile) => {
      found.seen.add(f);
      queue.push(f);
      nudge();
    },
    { seen: new Set<SourceFile>() },
  );
  let listing: SourceListing | undefined;
  try {
    listing = await listSource(source, manifest, found);
    vet?.(listing);
    // A zip's entries and the manifest were not found by a walk.
    for (const f of listing.files) if (!found.seen.has(f)) queue.push(f);
  } catch (err) {
    failure ??= { err };
  }
  listed = true;
  nudge();
  await workers; // every read is done before the source is closed
  listing?.close();
  if (failure) throw failure.err;
  const ix = await index;
  // Opened for some files only (the source's own hosting.json, a check run alongside the one that
  // read the rest): the others' entries are saved too, or the next process would read them again.
  if (ix) for (const f of fromWalk) ix.known(f.name, f.stamp!, hashes.get(f)!);
  await ix?.save();
  // Kept once the whole hash succeeded, so a kept walk's files are in the index too (unless it
  // could not be written).
  for (const f of listing!.files) if (f.stamp) walkDigests.set(f, hashes.get(f)!);
  return listing!.files.map((f) => ({ name: f.name, mode: f.mode, sha256: hashes.get(f)! }));
}

/** The hash index of a folder source; none for a .zip, or where the path does not resolve. */
async function indexOf(source: string): Promise<SourceIndex | undefined> {
  try {
    const real = await realpath(resolve(source));
    return (await stat(real)).isDirectory() ? await SourceIndex.open(real) : undefined;
  } catch {
    return undefined; // listSource says what is wrong with the path
  }
}

function readDigest(f: SourceFile): Promise<string> {
  return f.digest ? f.digest() : f.open().then(digestStream);
}

async function digestStream(s: Readable): Promise<string> {
  const h = createHash("sha256");
  for await (const c of s) h.update(c as Buffer);
  return h.digest("hex");
}
