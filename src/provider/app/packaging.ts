import { createHash } from "node:crypto";
import { createWriteStream } from "node:fs";
import { lstat, mkdtemp, readFile, readdir, realpath, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative, resolve, sep } from "node:path";
import type { Readable } from "node:stream";
import ignore from "ignore";
import yauzl from "yauzl";
import yazl from "yazl";
import { wireAssumptions } from "../../api/endpoints";
import { HostingInputError } from "../../api/errors/input-error";
import type { Manifest } from "../../api/manifest";
import { sameValue, stableJson } from "../stable-json";

export interface PackagedSource {
  zipPath: string;
  /** sha256 of the archive bytes: the same source and settings always give the same hash. */
  sha256: string;
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
  const entries = st.isDirectory()
    ? await directoryEntries(root)
    : root.endsWith(".zip")
      ? await zipEntries(root)
      : undefined;
  if (!entries) {
    throw new HostingInputError(
      "source",
      `source ${JSON.stringify(source)} must be a directory or a .zip file`,
    );
  }
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

async function writeZip(files: Entry[]): Promise<PackagedSource> {
  const dir = await mkdtemp(join(tmpdir(), "pulumi-hosting-"));
  const zipPath = join(dir, "source.zip");
  const zip = new yazl.ZipFile();
  const hash = createHash("sha256");
  let bytes = 0;
  const written = new Promise<void>((ok, fail) => {
    zip.outputStream.on("data", (c: Buffer) => {
      hash.update(c);
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
    if (Buffer.isBuffer(content)) zip.addBuffer(content, f.name, opts(f.mode));
    else zip.addReadStream(content, f.name, opts(f.mode));
  }
  zip.end();
  await written;
  return { zipPath, sha256: hash.digest("hex"), bytes, files: files.length };
}

async function directoryEntries(root: string): Promise<Entry[]> {
  const realRoot = await realpath(root);
  const ig = ignore().add(ALWAYS_EXCLUDED);
  try {
    ig.add(await readFile(join(root, IGNORE_FILE), "utf8"));
  } catch {
    // no .hostingignore
  }
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

function zipEntries(file: string): Promise<Entry[]> {
  return new Promise((ok, fail) => {
    yauzl.open(file, { lazyEntries: true, autoClose: false }, (err, zip) => {
      if (err || !zip) {
        fail(new HostingInputError("source", `source ${file} is not a readable zip archive`));
        return;
      }
      const out: Entry[] = [];
      zip.on("error", (e: Error) =>
        fail(new HostingInputError("source", `source ${file}: ${e.message}`)),
      );
      zip.on("entry", (entry: yauzl.Entry) => {
        if (!entry.fileName.endsWith("/")) {
          const unixMode = (entry.externalFileAttributes >>> 16) & 0o777;
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
  });
}

async function assertManifestAgrees(entry: Entry, manifest: Manifest): Promise<void> {
  const content = await entry.open();
  const text = Buffer.isBuffer(content) ? content.toString("utf8") : await streamText(content);
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
