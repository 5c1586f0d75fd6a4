import { statSync } from "node:fs";
import { resolve } from "node:path";
import { PassThrough, Readable } from "node:stream";
import yauzl from "yauzl";
import { wireAssumptions, HostingInputError } from "../../api/wire";
import type { Manifest } from "./manifest";
import { sameValue, stableJson } from "../stable-json";
import { folderFiles } from "./folder-walk";
import { missingSource } from "./source-exists";
import { SizeTally, SOURCE_LIMITS } from "./source-limits";
import { shownName } from "./source-names";
import { byName, IGNORE_FILE, ignoreRules, type Ignore, type SourceFile } from "./source-rules";

export { byName, type SourceFile } from "./source-rules";

/*
 * What a source holds, as both the content hash and the archive see it: one listing, so the hash
 * check computes without packing is the hash of exactly what create packs, name for name.
 */

export interface SourceListing {
  /** Sorted by name, the manifest included: the order of the archive and of the hash. */
  files: SourceFile[];
  /** Releases the source (a zip's file handle); call it once every file has been read. */
  close(): void;
  /** The source's ignore rules (node_modules, .git, .hostingignore): what they leave out. */
  ignore: Ignore;
}

/** A hosting.json larger than this cannot equal any manifest the inputs make. */
const OWN_MANIFEST_MAX = 1 << 20;

/**
 * The files of a directory or a .zip with the manifest at the root: no node_modules or .git,
 * nothing matched by .hostingignore (see folder-walk.ts). A source's own hosting.json must equal
 * the inputs' manifest; the App's one replaces it.
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
    // Without the thread pool, as the walk stats (folder-walk.ts): a check that finds its walk
    // kept then waits on nothing the creates' packing queues there.
    st = statSync(root);
  } catch {
    throw missingSource(source, root);
  }
  if (!st.isDirectory() && !(st.isFile() && root.endsWith(".zip"))) {
    throw new HostingInputError(
      "source",
      `source ${JSON.stringify(source)} must be a directory or a .zip file`,
    );
  }
  const src = st.isDirectory()
    ? { ...(await folderFiles(root, found)), close: () => undefined }
    : await zipEntries(root);
  try {
    const manifestText = `${stableJson(manifest, 2)}\n`;
    const own = src.files.find((e) => e.name === wireAssumptions.manifestFileName);
    if (own) await assertManifestAgrees(own, manifest);
    const files = src.files.filter((e) => e !== own);
    if (files.length === 0) {
      throw new HostingInputError(
        "source",
        `source ${JSON.stringify(source)} has no file to upload (after node_modules, .git and ` +
          `${IGNORE_FILE}); point source at the app's folder`,
      );
    }
    files.push({
      name: wireAssumptions.manifestFileName,
      mode: 0o644,
      open: async () => Readable.from([Buffer.from(manifestText)]),
    });
    files.sort(byName);
    for (let i = 1; i < files.length; i++) {
      if (files[i].name === files[i - 1].name) {
        throw new HostingInputError(
          "source",
          `source holds two files named ${shownName(files[i].name)}; an archive holds one`,
        );
      }
    }
    return { files, close: src.close, ignore: src.ignore };
  } catch (err) {
    src.close();
    throw err;
  }
}

/** The files of a .zip, under the same rules as a folder (its own .hostingignore too). */
async function zipEntries(
  file: string,
): Promise<{ files: SourceFile[]; close: () => void; ignore: Ignore }> {
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
    const all = await new Promise<Array<SourceFile & { size: number }>>((ok, fail) => {
      const out: Array<SourceFile & { size: number }> = [];
      zip.on("error", (e: Error) => fail(broken(e)));
      zip.on("entry", (entry: yauzl.Entry) => {
        const unixMode = (entry.externalFileAttributes >>> 16) & 0o170777;
        const isLink = (unixMode & 0o170000) === 0o120000;
        if (!entry.fileName.endsWith("/") && !isLink) {
          out.push({
            name: entry.fileName,
            mode: unixMode & 0o100 ? 0o755 : 0o644,
            size: entry.uncompressedSize,
            fromZip: true,
            open: () =>
              new Promise((res, rej) =>
                zip.openReadStream(entry, (e, s) => {
                  if (e || !s) return rej(broken(e ?? new Error("no stream")));
                  // A broken entry (bad deflate data, a wrong size) fails naming the source.
                  const out = new PassThrough();
                  s.on("error", (err: Error) => out.destroy(broken(err)));
                  res(s.pipe(out));
                }),
              ),
          });
        }
        zip.readEntry();
      });
      zip.on("end", () => ok(out));
      zip.readEntry();
    });
    const own = all.find((e) => e.name === IGNORE_FILE);
    const rules = own ? await textOf(own, SOURCE_LIMITS.ignoreFileBytes) : undefined;
    if (own && rules === undefined) {
      throw new HostingInputError(
        "source",
        `source ${file}: ${IGNORE_FILE} is larger than ${SOURCE_LIMITS.ignoreFileBytes} bytes`,
      );
    }
    const ignore = ignoreRules(rules);
    const files = all.filter((e) => !ignore.ignores(e.name));
    const tally = new SizeTally();
    for (const e of files) tally.add(shownName(e.name), e.size);
    return { files, close, ignore };
  } catch (err) {
    close();
    throw err;
  }
}

/** A small file's text; undefined past `max` bytes. */
async function textOf(f: SourceFile, max: number): Promise<string | undefined> {
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
