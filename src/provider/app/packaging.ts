import { createHash } from "node:crypto";
import { createWriteStream } from "node:fs";
import { lstat, mkdtemp, readFile, readdir, realpath, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative, resolve, sep } from "node:path";
import { PassThrough, type Readable } from "node:stream";
import ignore from "ignore";
import yauzl from "yauzl";
import yazl from "yazl";
import { wireAssumptions } from "../../api/endpoints";
import { HostingInputError } from "../../api/errors/input-error";
import type { Manifest } from "../../api/manifest";
import { sameValue, stableJson } from "../stable-json";

export interface PackagedSource {
  zipPath: string;
  /**
   * sha256 of the content, never of the compressed bytes (zlib's output differs between Node
   * builds and CPUs): see contentHash. The same files, modes and settings give the same hash.
   */
  sha256: string;
  /** sha256 of the archive bytes: what builds before the content hash called sourceHash. */
  archiveSha256: string;
  bytes: number;
  files: number;
}

const ALWAYS_EXCLUDED = ["node_modules/", ".git/"];
const IGNORE_FILE = ".hostingignore";
// DOS timestamps are local time: build the date from local parts so every machine writes 1980-01-01.
const FIXED_MTIME = new Date(1980, 0, 1, 0, 0, 0);

interface Entry {
  name: string;
  mode: number;
  open: () => Promise<Readable | Buffer>;
}

/**
 * Packs a directory or a .zip into a deterministic archive with the manifest at its root: sorted
 * entries, fixed timestamps, modes reduced to 644/755, no node_modules or .git, nothing matched
 * by .hostingignore, and no symlink that leaves the source root.
 */
export async function packageSource(source: string, manifest: Manifest): Promise<PackagedSource> {
  const root = resolve(source);
  let st;
  try {
    st = await stat(root);
  } catch {
    throw new HostingInputError("source", `source ${JSON.stringify(source)} does not exist`);
  }
  if (st.isDirectory()) return pack(await directoryEntries(root), manifest);
  if (!root.endsWith(".zip")) {
    throw new HostingInputError(
      "source",
      `source ${JSON.stringify(source)} must be a directory or a .zip file`,
    );
  }
  const zip = await zipEntries(root);
  try {
    return await pack(zip.entries, manifest);
  } finally {
    zip.close();
  }
}

async function pack(entries: Entry[], manifest: Manifest): Promise<PackagedSource> {
  const manifestText = `${stableJson(manifest, 2)}\n`;
  const own = entries.find((e) => e.name === wireAssumptions.manifestFileName);
  if (own) await assertManifestAgrees(own, manifest);
  const files = entries.filter((e) => e !== own);
  files.push({
    name: wireAssumptions.manifestFileName,
    mode: 0o644,
    open: async () => Buffer.from(manifestText),
  });
  files.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return writeZip(files);
}

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
  const sorted = [...files].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const f of sorted) h.update(`${f.mode.toString(8)} ${f.sha256} ${f.name}\n`);
  return h.digest("hex");
}

/** Hashes a stream's bytes as they pass on to the zip. */
function hashing(content: Readable, done: (hex: string) => void): Readable {
  const h = createHash("sha256");
  const tap = new PassThrough();
  tap.on("data", (c: Buffer) => h.update(c));
  tap.on("end", () => done(h.digest("hex")));
  content.on("error", (e) => tap.destroy(e));
  return content.pipe(tap);
}

async function writeZip(files: Entry[]): Promise<PackagedSource> {
  const dir = await mkdtemp(join(tmpdir(), "pulumi-hosting-"));
  const zipPath = join(dir, "source.zip");
  const zip = new yazl.ZipFile();
  const hashed: HashedFile[] = [];
  const archiveHash = createHash("sha256");
  let bytes = 0;
  const written = new Promise<void>((ok, fail) => {
    zip.outputStream.on("data", (c: Buffer) => {
      archiveHash.update(c);
      bytes += c.length;
    });
    zip.outputStream.pipe(createWriteStream(zipPath)).on("close", ok).on("error", fail);
    zip.outputStream.on("error", fail);
  });
  const opts = (mode: number) => ({
    mtime: FIXED_MTIME,
    mode: 0o100000 | mode,
    forceDosTimestamp: true,
  });
  for (const f of files) {
    const content = await f.open();
    const record = (sha256: string) => hashed.push({ name: f.name, mode: f.mode, sha256 });
    if (Buffer.isBuffer(content)) {
      record(createHash("sha256").update(content).digest("hex"));
      zip.addBuffer(content, f.name, opts(f.mode));
    } else {
      zip.addReadStream(hashing(content, record), f.name, opts(f.mode));
    }
  }
  zip.end();
  await written;
  return {
    zipPath,
    sha256: contentHash(hashed),
    archiveSha256: archiveHash.digest("hex"),
    bytes,
    files: files.length,
  };
}

/** node_modules, .git and the patterns of .hostingignore (gitignore syntax). */
function ignoreRules(hostingIgnore: string | undefined) {
  const ig = ignore().add(ALWAYS_EXCLUDED);
  if (hostingIgnore !== undefined) ig.add(hostingIgnore);
  return ig;
}

async function directoryEntries(root: string): Promise<Entry[]> {
  const realRoot = await realpath(root);
  const ig = ignoreRules(await readFile(join(root, IGNORE_FILE), "utf8").catch(() => undefined));
  const out: Entry[] = [];
  const seen = new Set<string>();
  const walk = async (dir: string): Promise<void> => {
    const real = await realpath(dir);
    if (seen.has(real)) return; // a link back into a folder already packed
    seen.add(real);
    for (const name of (await readdir(dir)).sort()) {
      const abs = join(dir, name);
      const rel = relative(root, abs).split(sep).join("/");
      const info = await lstat(abs);
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
        out.push({
          name: rel,
          mode: target.mode & 0o100 ? 0o755 : 0o644,
          open: async () => readFile(abs),
        });
      }
    }
  };
  await walk(root);
  return out;
}

interface ZipSource {
  entries: Entry[];
  /** Closes the archive's file handle; call it once every entry has been read. */
  close: () => void;
}

/** The files of a .zip, under the same ignore rules as a folder (its own .hostingignore too). */
async function zipEntries(file: string): Promise<ZipSource> {
  const zip = await new Promise<yauzl.ZipFile>((ok, fail) =>
    yauzl.open(file, { lazyEntries: true, autoClose: false }, (err, z) =>
      err || !z
        ? fail(new HostingInputError("source", `source ${file} is not a readable zip archive`))
        : ok(z),
    ),
  );
  const close = () => zip.close();
  try {
    const all = await new Promise<Entry[]>((ok, fail) => {
      const out: Entry[] = [];
      zip.on("error", (e: Error) =>
        fail(new HostingInputError("source", `source ${file}: ${e.message}`)),
      );
      zip.on("entry", (entry: yauzl.Entry) => {
        const unixMode = (entry.externalFileAttributes >>> 16) & 0o170777;
        const isLink = (unixMode & 0o170000) === 0o120000;
        if (!entry.fileName.endsWith("/") && !isLink) {
          out.push({
            name: entry.fileName,
            mode: unixMode & 0o100 ? 0o755 : 0o644,
            open: () =>
              new Promise((res, rej) =>
                zip.openReadStream(entry, (e, s) => (e || !s ? rej(e) : res(s))),
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

async function textOf(entry: Entry): Promise<string> {
  const content = await entry.open();
  return Buffer.isBuffer(content) ? content.toString("utf8") : streamText(content);
}

async function assertManifestAgrees(entry: Entry, manifest: Manifest): Promise<void> {
  const text = await textOf(entry);
  let theirs: unknown;
  try {
    theirs = JSON.parse(text);
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

async function streamText(s: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of s) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}
