import { createHash, randomBytes } from "node:crypto";
import { mkdir, open, rename, rm } from "node:fs/promises";
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
 *     another root is ignored and rebuilt; one that cannot be written is left as it was.
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
const SHA256 = /^[0-9a-f]{64}$/;

let racyMs = DEFAULT_RACY_MS;

/** @internal For tests: the racy window (undefined: the default). */
export function setRacyWindowMs(ms?: number): void {
  racyMs = ms ?? DEFAULT_RACY_MS;
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

  /** Writes what this hash saw (files gone are dropped); a failure leaves the old index. */
  async save(): Promise<void> {
    if (!this.#changed && this.#now.size === this.#old.size) return;
    const text = JSON.stringify({
      format: FORMAT,
      version,
      root: this.#root,
      files: Object.fromEntries(this.#now),
    });
    const tmp = `${this.#file}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
    try {
      await mkdir(cacheDir(), { recursive: true, mode: 0o700 });
      const fh = await open(tmp, "wx", 0o600);
      try {
        await fh.writeFile(text);
      } finally {
        await fh.close();
      }
      await rename(tmp, this.#file);
    } catch {
      await rm(tmp, { force: true }).catch(() => undefined);
    }
  }
}

const same = (e: Entry, s: FileStamp) =>
  e[0] === s.dev && e[1] === s.ino && e[2] === s.size && e[3] === s.mtimeMs && e[4] === s.ctimeMs;

/** The entries of an index file; an empty map for anything but a sound index of this root. */
async function load(file: string, root: string): Promise<Map<string, Entry>> {
  const none = new Map<string, Entry>();
  let text: string;
  try {
    const fh = await open(file, "r");
    try {
      if ((await fh.stat()).size > MAX_INDEX_BYTES) return none;
      text = await fh.readFile("utf8");
    } finally {
      await fh.close();
    }
  } catch {
    return none;
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return none;
  }
  if (typeof data !== "object" || data === null) return none;
  const d = data as { format?: unknown; version?: unknown; root?: unknown; files?: unknown };
  if (d.format !== FORMAT || d.version !== version || d.root !== root) return none;
  if (typeof d.files !== "object" || d.files === null || Array.isArray(d.files)) return none;
  const out = new Map<string, Entry>();
  for (const [name, e] of Object.entries(d.files)) {
    if (!sound(e)) return none;
    out.set(name, e);
  }
  return out;
}

function sound(e: unknown): e is Entry {
  return (
    Array.isArray(e) &&
    e.length === 6 &&
    e.slice(0, 5).every((n) => typeof n === "number" && Number.isFinite(n)) &&
    typeof e[5] === "string" &&
    SHA256.test(e[5])
  );
}
