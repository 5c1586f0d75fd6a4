import {
  close as fsClose,
  constants,
  fstat,
  open as fsOpen,
  read as fsRead,
  type Stats,
} from "node:fs";
import { lstat, open, readFile, readdir, realpath, stat, type FileHandle } from "node:fs/promises";
import { join, relative, resolve, sep } from "node:path";
import { createHash } from "node:crypto";
import { Readable } from "node:stream";
import ignore from "ignore";
import yauzl from "yauzl";
import { wireAssumptions } from "../../api/endpoints";
import { HostingInputError } from "../../api/errors/input-error";
import type { Manifest } from "../../api/manifest";
import { sameValue, stableJson } from "../stable-json";

/*
 * What a source holds, as both the content hash and the archive see it: one listing, so the hash
 * check computes without packing is the hash of exactly what create packs.
 */

/** One file of the source, read only when asked (never all at once). */
export interface SourceFile {
  /** Relative path with `/` separators. */
  name: string;
  /** 0o644 or 0o755. */
  mode: number;
  /** A stream of the file's bytes; errors name `source/<path>`. */
  open(): Promise<Readable>;
  /** sha256 of the bytes, hex, read in chunks; when absent, the hash of `open()`'s stream. */
  digest?(): Promise<string>;
  /** An entry of a .zip source (the packer of the zip-bytes hash streamed these, not buffers). */
  fromZip?: true;
}

export interface SourceListing {
  /** Sorted by name, the manifest included: the order of the archive and of the hash. */
  files: SourceFile[];
  /** Releases the source (a zip's file handle); call it once every file has been read. */
  close(): void;
}

const ALWAYS_EXCLUDED = ["node_modules/", ".git/"];
const IGNORE_FILE = ".hostingignore";
/** A hosting.json larger than this cannot equal any manifest the inputs make. */
const OWN_MANIFEST_MAX = 1 << 20;
/** lstat calls in flight while listing one folder (they do not depend on each other). */
const LSTAT_BATCH = 64;

export const byName = (a: { name: string }, b: { name: string }) =>
  a.name < b.name ? -1 : a.name > b.name ? 1 : 0;

/**
 * The files of a directory or a .zip with the manifest at the root: no node_modules or .git,
 * nothing matched by .hostingignore, and no symlink that leaves the source root. A source's own
 * hosting.json must equal the inputs' manifest; the App's one replaces it.
 */
export async function listSource(
  source: string,
  manifest: Manifest,
  /** Told of each file of a folder as the walk finds it, so reading can start meanwhile. */
  found?: (f: SourceFile) => void,
): Promise<SourceListing> {
  const root = resolve(source);
  let st;
  try {
    st = await stat(root);
  } catch {
    throw new HostingInputError("source", `source ${JSON.stringify(source)} does not exist`);
  }
  if (!st.isDirectory() && !root.endsWith(".zip")) {
    throw new HostingInputError(
      "source",
      `source ${JSON.stringify(source)} must be a directory or a .zip file`,
    );
  }
  const src = st.isDirectory()
    ? { entries: await directoryEntries(root, found), close: () => undefined }
    : await zipEntries(root);
  try {
    const manifestText = `${stableJson(manifest, 2)}\n`;
    const own = src.entries.find((e) => e.name === wireAssumptions.manifestFileName);
    if (own) await assertManifestAgrees(own, manifest);
    const files = src.entries.filter((e) => e !== own);
    files.push({
      name: wireAssumptions.manifestFileName,
      mode: 0o644,
      open: async () => Readable.from([Buffer.from(manifestText)]),
    });
    files.sort(byName);
    return { files, close: src.close };
  } catch (err) {
    src.close();
    throw err;
  }
}

/** node_modules, .git and the patterns of .hostingignore (gitignore syntax). */
function ignoreRules(hostingIgnore: string | undefined) {
  const ig = ignore().add(ALWAYS_EXCLUDED);
  if (hostingIgnore !== undefined) ig.add(hostingIgnore);
  return ig;
}

const unreadable = (rel: string, err: unknown) =>
  new HostingInputError(
    "source",
    `source/${rel} cannot be read (${(err as NodeJS.ErrnoException).code ?? String(err)}); ` +
      "make it readable or list it in .hostingignore",
  );

/**
 * Opens a file the listing saw as a regular file. O_NONBLOCK: should it have been swapped for a
 * FIFO since, the open does not wait for a writer, and the check below refuses it.
 */
async function openRegular(abs: string, rel: string): Promise<FileHandle> {
  let fh: FileHandle;
  try {
    fh = await open(abs, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (err) {
    throw unreadable(rel, err);
  }
  const info = await fh.stat().catch((err: unknown) => {
    void fh.close();
    throw unreadable(rel, err);
  });
  if (!info.isFile()) {
    await fh.close();
    throw new HostingInputError(
      "source",
      `source/${rel} stopped being a regular file while the source was read; run again`,
    );
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
 * sha256 of a file, read in chunks (no whole file in memory), with the callback API: a small
 * file costs open, read, fstat and close, as a readFile does. The fstat after the read holds the
 * file to what the listing saw: a file that stopped being regular (O_NONBLOCK: a FIFO swapped in
 * never blocks the open) or whose size or mtime moved is refused, naming it.
 */
function digestFile(abs: string, rel: string, listed: Listed): Promise<string> {
  return new Promise((resolve, reject) => {
    const h = createHash("sha256");
    const buf = spare.pop() ?? Buffer.allocUnsafe(READ_CHUNK);
    let returned = false;
    const done = () => {
      if (!returned && spare.length < SPARE_MAX) spare.push(buf);
      returned = true;
    };
    let total = 0;
    let fd = -1;
    const fail = (err: unknown) => {
      const e = HostingInputError.isInstance(err) ? err : unreadable(rel, err);
      done();
      if (fd < 0) reject(e);
      else fsClose(fd, () => reject(e));
    };
    const check = () =>
      fstat(fd, (err, now) => {
        if (err) return fail(err);
        if (!now.isFile() || total !== listed.size || now.size !== listed.size)
          return fail(moved(rel));
        if (now.mtimeMs !== listed.mtimeMs) return fail(moved(rel));
        const hex = h.digest("hex");
        fsClose(fd, (e) => (e ? fail(e) : (done(), resolve(hex))));
      });
    const next = () =>
      fsRead(fd, buf, 0, buf.length, null, (err, n) => {
        if (err) return fail(err);
        h.update(buf.subarray(0, n));
        total += n;
        // A short read below the buffer is the end, unless the file is larger than listed.
        if (n === 0 || (n < buf.length && total >= listed.size)) return check();
        next();
      });
    fsOpen(abs, constants.O_RDONLY | constants.O_NONBLOCK, (err, opened) => {
      if (err) return fail(err);
      fd = opened;
      next();
    });
  });
}

const moved = (rel: string) =>
  new HostingInputError(
    "source",
    `source/${rel} changed while the source was read; run again once nothing writes to it`,
  );

/** What the walk saw of a file, held to when it is read. */
interface Listed {
  size: number;
  mtimeMs: number;
}

/**
 * A file of a folder source. A class, not an object of closures: a source of 10,000 files holds
 * 10,000 of these, and what each keeps is its paths and two numbers.
 */
class FolderFile implements SourceFile {
  readonly name: string;
  readonly mode: number;
  private readonly listed: Listed;

  constructor(
    private readonly abs: string,
    rel: string,
    info: Stats,
  ) {
    this.name = rel;
    this.mode = info.mode & 0o100 ? 0o755 : 0o644;
    this.listed = { size: info.size, mtimeMs: info.mtimeMs };
  }

  async open(): Promise<Readable> {
    const fh = await openRegular(this.abs, this.name);
    const s = fh.createReadStream({ highWaterMark: 1 << 16 });
    return s.on("error", (err) => s.destroy(unreadable(this.name, err)));
  }

  digest(): Promise<string> {
    return digestFile(this.abs, this.name, this.listed);
  }
}

/** A folder's files, in the order of a sorted depth-first walk (it decides which link is kept). */
async function directoryEntries(
  root: string,
  found?: (f: SourceFile) => void,
): Promise<SourceFile[]> {
  const realRoot = await realpath(root);
  const ig = ignoreRules(await readFile(join(root, IGNORE_FILE), "utf8").catch(() => undefined));
  const out: SourceFile[] = [];
  const seen = new Set<string>();
  const walk = async (dir: string): Promise<void> => {
    const real = await realpath(dir);
    if (seen.has(real)) return; // a link back into a folder already packed
    seen.add(real);
    const names = (
      await readdir(dir).catch((err: unknown) => {
        throw unreadable(relative(root, dir).split(sep).join("/") || ".", err);
      })
    ).sort();
    for (let i = 0; i < names.length; i += LSTAT_BATCH) {
      const batch = names.slice(i, i + LSTAT_BATCH);
      const infos = await Promise.all(
        batch.map((name) =>
          lstat(join(dir, name)).catch((err: unknown) => {
            throw unreadable(relative(root, join(dir, name)).split(sep).join("/"), err);
          }),
        ),
      );
      for (let j = 0; j < batch.length; j++) {
        const abs = join(dir, batch[j]);
        const rel = relative(root, abs).split(sep).join("/");
        const info = infos[j];
        let target = info;
        if (info.isSymbolicLink()) {
          const dest = await realpath(abs).catch(() => undefined);
          if (!dest || (dest !== realRoot && !dest.startsWith(realRoot + sep))) {
            throw new HostingInputError(
              "source",
              `source/${rel} is a symlink that leaves the source root; copy the file in or remove the link`,
            );
          }
          target = await stat(abs);
        }
        if (target.isDirectory()) {
          if (ig.ignores(`${rel}/`)) continue;
          await walk(abs);
        } else if (target.isFile()) {
          if (ig.ignores(rel)) continue;
          const file = new FolderFile(abs, rel, target);
          out.push(file);
          found?.(file);
        }
        // Anything else (a FIFO, a socket, a device) is not a file of the app: left out.
      }
    }
  };
  await walk(root);
  return out;
}

/** The files of a .zip, under the same ignore rules as a folder (its own .hostingignore too). */
async function zipEntries(file: string): Promise<{ entries: SourceFile[]; close: () => void }> {
  const zip = await new Promise<yauzl.ZipFile>((ok, fail) =>
    yauzl.open(file, { lazyEntries: true, autoClose: false }, (err, z) =>
      err || !z
        ? fail(new HostingInputError("source", `source ${file} is not a readable zip archive`))
        : ok(z),
    ),
  );
  const close = () => zip.close();
  const broken = (e: Error) => new HostingInputError("source", `source ${file}: ${e.message}`);
  try {
    const all = await new Promise<SourceFile[]>((ok, fail) => {
      const out: SourceFile[] = [];
      zip.on("error", (e: Error) => fail(broken(e)));
      zip.on("entry", (entry: yauzl.Entry) => {
        const unixMode = (entry.externalFileAttributes >>> 16) & 0o170777;
        const isLink = (unixMode & 0o170000) === 0o120000;
        if (!entry.fileName.endsWith("/") && !isLink) {
          out.push({
            name: entry.fileName,
            mode: unixMode & 0o100 ? 0o755 : 0o644,
            fromZip: true,
            open: () =>
              new Promise((res, rej) =>
                zip.openReadStream(entry, (e, s) =>
                  e || !s ? rej(broken(e ?? new Error("no stream"))) : res(s),
                ),
              ),
          });
        }
        zip.readEntry();
      });
      zip.on("end", () => ok(out));
      zip.readEntry();
    });
    const own = all.find((e) => e.name === IGNORE_FILE);
    const ig = ignoreRules(own ? await textOf(own) : undefined);
    return { entries: all.filter((e) => !ig.ignores(e.name)), close };
  } catch (err) {
    close();
    throw err;
  }
}

/** A small file's text; undefined past `max` bytes. */
async function textOf(f: SourceFile, max = Infinity): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let n = 0;
  const s = await f.open();
  for await (const c of s) {
    n += (c as Buffer).length;
    if (n > max) {
      s.destroy();
      return undefined;
    }
    chunks.push(c as Buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}

async function assertManifestAgrees(entry: SourceFile, manifest: Manifest): Promise<void> {
  const text = await textOf(entry, OWN_MANIFEST_MAX);
  let theirs: unknown;
  try {
    theirs = text === undefined ? undefined : JSON.parse(text);
  } catch {
    theirs = undefined;
  }
  if (!sameValue(theirs, manifest)) {
    throw new HostingInputError(
      "source",
      `source already has a ${wireAssumptions.manifestFileName} that differs from the App's inputs; ` +
        "remove it from the source (the App writes it) or make the inputs match it",
    );
  }
}
