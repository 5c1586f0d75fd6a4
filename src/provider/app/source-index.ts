import { createHash, randomBytes } from "node:crypto";
import { constants, type Stats } from "node:fs";
import { lstat, mkdir, open, rename, rm } from "node:fs/promises";
import { join } from "node:path";
import { version } from "../../api/wire";
import { cacheDirectory, sourceIndexOff } from "../../connection";

/*
 * An index of source hashes, as git's index answers "did anything change?": per file of a folder
 * source, its device, inode, size, mtime and ctime with the sha256 of its bytes. A file whose
 * five are unchanged is not read again; every other file is. It lives outside the user's tree, in
 * the package's cache folder, one file per source root. Nothing in it is trusted blindly:
 *   - a file changed within RACY_MS of being hashed (or stamped in the future) is not kept: a
 *     second write in the same timestamp tick would not show (git's "racy" entries);
 *   - an index that is missing, unreadable, corrupt, of another format or package version, or of
 *     another root is ignored and rebuilt; one that cannot be written is left as it was;
 *   - the index file is looked at (lstat) before it is opened, and opened without following a
 *     link or waiting for a writer, then looked at again (fstat): anything but a regular file of
 *     this user that no other user may write, up to MAX_INDEX_BYTES, is ignored, never read;
 *   - reading it and writing it each have a deadline (a hung network file system): past it, the
 *     hash goes on without the index.
 * What it does not defend against: a process of the same user can rewrite an entry with a file's
 * current stamp and an old hash, and hide an edit from previews. No key such a process could not
 * read would fit there, and it can edit the source, the program and the state as well.
 * Create never uses it: what is uploaded is hashed from the bytes packed.
 * HOSTING_SOURCE_INDEX=off turns it off; HOSTING_CACHE_DIR moves the cache folder.
 */

/** What identifies one state of a file: git's stat data. */
export interface FileStamp {
  dev: number;
  ino: number;
  size: number;
  mtimeMs: number;
  ctimeMs: number;
}

type Entry = [
  dev: number,
  ino: number,
  size: number,
  mtimeMs: number,
  ctimeMs: number,
  sha: string,
];

const FORMAT = "pulumi-hosting source index 1";
/** Timestamps within this of the hash (file systems tick in up to 2 s) are racy. */
const DEFAULT_RACY_MS = 2000;
/** A larger index file is not read: no source of the limits holds that many files. */
const MAX_INDEX_BYTES = 64 << 20;
/** Reading or writing the index takes no longer than this; past it, hashing goes on without. */
const DEFAULT_DEADLINE_MS = 10_000;
const SHA256 = /^[0-9a-f]{64}$/;

let racyMs = DEFAULT_RACY_MS;
let deadlineMs = DEFAULT_DEADLINE_MS;

/** @internal For tests: the racy window (undefined: the default). */
export function setRacyWindowMs(ms?: number): void {
  racyMs = ms ?? DEFAULT_RACY_MS;
}

/** The racy window: a file stamped within it of a look is not taken as unchanged by the next. */
export function racyWindowMs(): number {
  return racyMs;
}

/** @internal For tests: the deadline of reading and of writing the index (undefined: default). */
export function setIndexDeadlineMs(ms?: number): void {
  deadlineMs = ms ?? DEFAULT_DEADLINE_MS;
}

/** @internal Files answered from an index and files read, since the process started. */
export const indexCounts = { hits: 0, reads: 0 };

function cacheDir(): string {
  return join(cacheDirectory(), "source-index");
}

/** One hash of one folder source through its index; `save` once every file is hashed. */
export class SourceIndex {
  readonly #file: string;
  readonly #root: string;
  readonly #old: Map<string, Entry>;
  readonly #now = new Map<string, Entry>();
  #changed = false;

  private constructor(file: string, root: string, old: Map<string, Entry>) {
    this.#file = file;
    this.#root = root;
    this.#old = old;
  }

  /** The index of a source root (its real path); undefined when turned off. */
  static async open(realRoot: string): Promise<SourceIndex | undefined> {
    if (sourceIndexOff()) return undefined;
    const name = createHash("sha256").update(realRoot).digest("hex").slice(0, 32);
    const file = join(cacheDir(), `${name}.json`);
    return new SourceIndex(file, realRoot, await load(file, realRoot));
  }

  /** The file's sha256: from the index when its stamp is unchanged, else from `read`. */
  async digest(name: string, stamp: FileStamp, read: () => Promise<string>): Promise<string> {
    const old = this.#old.get(name);
    if (old && same(old, stamp)) {
      indexCounts.hits++;
      this.#now.set(name, old);
      return old[5];
    }
    const startedAt = Date.now();
    const sha = await read();
    indexCounts.reads++;
    // Changed within the racy window (or dated later than now): the next look reads it again.
    if (Math.max(stamp.mtimeMs, stamp.ctimeMs) < startedAt - racyMs) {
      this.#now.set(name, [stamp.dev, stamp.ino, stamp.size, stamp.mtimeMs, stamp.ctimeMs, sha]);
    }
    this.#changed = true;
    return sha;
  }

  /**
   * A digest the hash had without asking (a kept walk's, taken outside the racy window): kept in
   * what is saved, as one asked for would be, so no entry of a file still there is dropped.
   */
  known(name: string, stamp: FileStamp, sha: string): void {
    if (this.#now.has(name)) return;
    const entry: Entry = [stamp.dev, stamp.ino, stamp.size, stamp.mtimeMs, stamp.ctimeMs, sha];
    const old = this.#old.get(name);
    if (!old || !same(old, stamp) || old[5] !== sha) this.#changed = true;
    this.#now.set(name, entry);
  }

  /**
   * Writes what this hash saw (files gone are dropped); a failure leaves the old index, and a
   * write past the deadline finishes (or fails) on its own while the hash goes on.
   */
  async save(): Promise<void> {
    if (!this.#changed && this.#now.size === this.#old.size) return;
    const text = JSON.stringify({
      format: FORMAT,
      version,
      root: this.#root,
      files: Object.fromEntries(this.#now),
    });
    await withinDeadline(write(this.#file, text));
  }
}

/** Writes the index whole or not at all: a new file renamed over the old one. */
async function write(file: string, text: string): Promise<void> {
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  try {
    await mkdir(cacheDir(), { recursive: true, mode: 0o700 });
    const fh = await open(tmp, "wx", 0o600);
    try {
      await fh.writeFile(text);
    } finally {
      await fh.close();
    }
    await rename(tmp, file);
  } catch {
    await rm(tmp).catch(() => undefined); // not made, or made and not renamed
  }
}

/** `work`'s outcome, or undefined once the deadline passes first (`work` is left to settle). */
async function withinDeadline<T>(work: Promise<T>): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<undefined>((resolve) => {
    timer = setTimeout(resolve, deadlineMs, undefined);
    timer.unref();
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/** Whether two looks at a file saw the same state: all five of git's stat data agree. */
export const sameStamp = (a: FileStamp, b: FileStamp) =>
  a.dev === b.dev &&
  a.ino === b.ino &&
  a.size === b.size &&
  a.mtimeMs === b.mtimeMs &&
  a.ctimeMs === b.ctimeMs;

const same = (e: Entry, s: FileStamp) =>
  sameStamp({ dev: e[0], ino: e[1], size: e[2], mtimeMs: e[3], ctimeMs: e[4] }, s);

/**
 * Index files this process read, by path, with the stat data they had: a check of many Apps
 * sharing a folder reads its index once and then only looks at it (lstat). Entries are trusted
 * by each file's own stamp either way, so one kept is as good as one read again.
 */
const read = new Map<string, { stamp: string; entries: Map<string, Entry> }>();

const stampText = (s: Stats) => `${s.dev}:${s.ino}:${s.size}:${s.mtimeMs}:${s.ctimeMs}`;

/** The entries of an index file; an empty map for anything but a sound index of this root. */
async function load(file: string, root: string): Promise<Map<string, Entry>> {
  const seen = await withinDeadline(lstat(file).catch(() => undefined));
  const stamp = seen && readable(seen) ? stampText(seen) : undefined;
  const known = read.get(file);
  if (stamp !== undefined && known?.stamp === stamp) return known.entries;
  const entries = await loadText(file, root);
  if (stamp !== undefined && entries.size > 0) read.set(file, { stamp, entries });
  else read.delete(file);
  return entries;
}

async function loadText(file: string, root: string): Promise<Map<string, Entry>> {
  const none = new Map<string, Entry>();
  const text = await withinDeadline(readIndexFile(file).catch(() => undefined));
  if (text === undefined) return none;
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    // Not JSON: left undefined, which (like null, a number or a list) has no `format` below.
  }
  const d = (data ?? {}) as Partial<Record<"format" | "version" | "root" | "files", unknown>>;
  if (d.format !== FORMAT || d.version !== version || d.root !== root) return none;
  if (typeof d.files !== "object" || d.files === null || Array.isArray(d.files)) return none;
  const out = new Map<string, Entry>();
  for (const [name, e] of Object.entries(d.files)) {
    if (!sound(e)) return none;
    out.set(name, e);
  }
  return out;
}

const uid = process.getuid?.();

/** What may be read as an index: a regular file of this user, no other may write, not too big. */
const readable = (s: Stats) =>
  s.isFile() &&
  s.size <= MAX_INDEX_BYTES &&
  (uid === undefined || s.uid === uid) &&
  (s.mode & 0o022) === 0;

/**
 * The index file's text; undefined for anything `readable` refuses. Looked at before it is opened
 * (a FIFO, device, folder or link is never opened), opened so that neither a link swapped in is
 * followed nor a FIFO swapped in waits for a writer, and looked at again through the handle.
 */
async function readIndexFile(file: string): Promise<string | undefined> {
  if (!readable(await lstat(file))) return undefined;
  const fh = await open(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  try {
    const seen = await fh.stat();
    if (!readable(seen)) return undefined;
    // One read: short only if the file shrank meanwhile, and then the JSON is cut (ignored).
    const buf = Buffer.allocUnsafe(seen.size);
    const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
    return buf.toString("utf8", 0, bytesRead);
  } finally {
    await fh.close();
  }
}

function sound(e: unknown): e is Entry {
  return (
    Array.isArray(e) &&
    e.length === 6 &&
    e.slice(0, 5).every((n) => Number.isFinite(n)) && // false for anything but a number
    typeof e[5] === "string" &&
    SHA256.test(e[5])
  );
}
