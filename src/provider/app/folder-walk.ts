import { lstatSync, statSync, type Dirent, type Stats } from "node:fs";
import { lstat, readdir, readlink, realpath, stat } from "node:fs/promises";
import { join, sep } from "node:path";
import type { Readable } from "node:stream";
import { HostingInputError } from "../../api/wire";
import { digestFile, openRegular, readWholeFile, unreadable, type Listed } from "./file-digest";
import type { FileStamp } from "./source-index";
import { SizeTally, SOURCE_LIMITS } from "./source-limits";
import { isUtf8, nameProblem, shownName } from "./source-names";
import { IGNORE_FILE, ignoreRules, type Ignore, type SourceFile } from "./source-rules";
import { keepWalk, keptWalk, stampOf, type Walked } from "./walk-memo";

/*
 * The walk of a folder source: every regular file under the root, by every name it is reached
 * through (a link to a folder inside the root gives that folder's files under the link's name
 * too), less node_modules, .git and what .hostingignore lists. Nothing is opened before lstat
 * said what it is; names a zip cannot carry faithfully and links that loop, dangle or leave the
 * root are refused naming the file, unless .hostingignore lists them.
 */

/** Entries of one folder looked at between two turns of the event loop. */
const LSTAT_BATCH = 64;

/**
 * A file of a folder source. A class, not an object of closures: a source of 10,000 files holds
 * 10,000 of these, and what each keeps is its paths and its stat data (for the hash index).
 */
class FolderFile implements SourceFile {
  readonly mode: number;
  readonly stamp: FileStamp;

  constructor(
    private readonly abs: string,
    readonly name: string,
    info: Stats,
  ) {
    this.mode = info.mode & 0o100 ? 0o755 : 0o644;
    const { dev, ino, size, mtimeMs, ctimeMs } = info;
    this.stamp = { dev, ino, size, mtimeMs, ctimeMs };
  }

  private get listed(): Listed {
    return this.stamp;
  }

  async open(): Promise<Readable> {
    const fh = await openRegular(this.abs, shownName(this.name));
    const s = fh.createReadStream({ highWaterMark: 1 << 16 });
    return s.on("error", (err) => s.destroy(unreadable(shownName(this.name), err)));
  }

  digest(): Promise<string> {
    return digestFile(this.abs, shownName(this.name), this.listed);
  }

  async whole(max: number): Promise<Buffer | undefined> {
    if (this.stamp.size > max) return undefined;
    return readWholeFile(this.abs, shownName(this.name), this.listed);
  }
}

const refused = (shown: string, why: string) =>
  new HostingInputError(
    "source",
    `source/${shown} ${why}; rename or remove it, or list it in ${IGNORE_FILE}`,
  );

/** A folder on the way from the root to where the walk is: its real path and its name. */
interface Step {
  real: string;
  shown: string;
}

const inside = (realRoot: string, p: string) => p === realRoot || p.startsWith(realRoot + sep);

/** Where a symlink leads, or why it cannot be followed. */
async function followLink(
  abs: string,
  shown: string,
  realRoot: string,
): Promise<{ real: string; info: Stats }> {
  let real: string;
  try {
    real = await realpath(abs);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ELOOP") throw refused(shown, "is a symlink loop (its links lead back to it)");
    if (code === "ENOENT") {
      const target = await readlink(abs).catch(() => "?");
      throw refused(
        shown,
        `is a dangling symlink (its target ${JSON.stringify(target)} is missing)`,
      );
    }
    throw unreadable(shown, err);
  }
  if (!inside(realRoot, real)) {
    throw refused(
      shown,
      `is a symlink to ${JSON.stringify(real)}, outside the source root; copy what it points to ` +
        "into the source",
    );
  }
  const info = await stat(real).catch((err: unknown) => {
    throw unreadable(shown, err);
  });
  return { real, info };
}

/**
 * `.hostingignore`'s text, or undefined without one. Read like any file: lstat first, only a
 * regular file (a link to one inside the root) of at most SOURCE_LIMITS.ignoreFileBytes. What
 * it saw is noted in `seen`.
 */
async function readIgnoreFile(
  root: string,
  realRoot: string,
  seen: Walked["seen"],
): Promise<string | undefined> {
  const abs = join(root, IGNORE_FILE);
  let info: Stats;
  try {
    info = await lstat(abs);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw unreadable(IGNORE_FILE, err);
  }
  let real: string | undefined;
  if (info.isSymbolicLink()) ({ real, info } = await followLink(abs, IGNORE_FILE, realRoot));
  if (!info.isFile()) {
    throw new HostingInputError(
      "source",
      `source/${IGNORE_FILE} is not a regular file; make it a text file of ignore patterns`,
    );
  }
  if (info.size > SOURCE_LIMITS.ignoreFileBytes) {
    throw new HostingInputError(
      "source",
      `source/${IGNORE_FILE} is larger than ${SOURCE_LIMITS.ignoreFileBytes} bytes; ` +
        "list folders rather than every file",
    );
  }
  seen.push({ abs, stamp: stampOf(info), real });
  const fh = await openRegular(abs, IGNORE_FILE);
  try {
    const buf = Buffer.alloc(info.size);
    const { bytesRead } = await fh.read(buf, 0, info.size, 0);
    return buf.toString("utf8", 0, bytesRead);
  } finally {
    await fh.close();
  }
}

/** Whether the rules leave an entry out, told from its name and what readdir said it is. */
function ignored(ig: Ignore, rel: string, entry: Dirent<Buffer>): boolean {
  if (entry.isFile()) return ig.ignores(rel);
  if (entry.isDirectory()) return ig.ignores(`${rel}/`);
  // A link may lead to a folder (and some file systems do not say): a folder pattern (`build/`)
  // leaves it out too.
  return ig.ignores(rel) || ig.ignores(`${rel}/`);
}

/**
 * A folder's files, in the order of a sorted depth-first walk, and the rules that left some out:
 * the walk kept from an earlier call when stat data shows nothing it saw changed (walk-memo.ts).
 */
export async function folderFiles(
  root: string,
  found?: (f: SourceFile) => void,
): Promise<{ files: SourceFile[]; ignore: Ignore }> {
  const kept = await keptWalk(root);
  if (kept) {
    kept.files.forEach((f) => found?.(f));
    return { files: kept.files, ignore: kept.ignore };
  }
  const began = Date.now();
  const walked = await walkFolder(root, found);
  keepWalk(root, { ...walked, began });
  return { files: walked.files, ignore: walked.ignore };
}

async function walkFolder(
  root: string,
  found?: (f: SourceFile) => void,
): Promise<Omit<Walked, "began">> {
  const realRoot = await realpath(root);
  // Stamped before anything in it is listed: a change after this shows as a later stamp.
  let rootInfo: Stats;
  try {
    rootInfo = statSync(realRoot);
  } catch (err) {
    throw unreadable(".", err);
  }
  const seen: Walked["seen"] = [{ abs: root, stamp: stampOf(rootInfo) }];
  const ig = ignoreRules(await readIgnoreFile(root, realRoot, seen));
  const tally = new SizeTally();
  const out: SourceFile[] = [];
  const walk = async (dir: string, rel: string, path: Step[]): Promise<void> => {
    const here = path[path.length - 1];
    const entries = (
      await readdir(dir, { withFileTypes: true, encoding: "buffer" }).catch((err: unknown) => {
        throw unreadable(here.shown || ".", err);
      })
    ).sort((a, b) => Buffer.compare(a.name, b.name));
    for (let i = 0; i < entries.length; i += LSTAT_BATCH) {
      if (i > 0) await new Promise((r) => setImmediate(r)); // a turn for the rest of the process
      const batch = entries.slice(i, i + LSTAT_BATCH).flatMap((entry) => {
        const name = entry.name.toString("utf8");
        const r = rel ? `${rel}/${name}` : name;
        if (ignored(ig, r, entry)) return [];
        const shown = here.shown ? `${here.shown}/${shownName(entry.name)}` : shownName(entry.name);
        if (!isUtf8(entry.name)) {
          throw refused(shown, "has a name that is not UTF-8 (shown with \\x escapes)");
        }
        const problem = nameProblem(r);
        if (problem) throw refused(shown, problem);
        return [{ name, abs: join(dir, name), rel: r, shown }];
      });
      // lstat without the thread pool: a promise per call costs 5-9 times the call itself, and
      // a preview of an unchanged tree is mostly these (git stats the same way). A batch blocks
      // for well under a millisecond on a local disk, then the event loop turns.
      const infos = batch.map((e) => {
        try {
          return lstatSync(e.abs);
        } catch (err) {
          throw unreadable(e.shown, err);
        }
      });
      const folders: Array<{ abs: string; rel: string; step: Step }> = [];
      const files: FolderFile[] = [];
      for (let j = 0; j < batch.length; j++) {
        const { name, abs, rel: r, shown } = batch[j];
        let info = infos[j];
        let real = join(here.real, name);
        const linked = info.isSymbolicLink();
        if (linked) ({ real, info } = await followLink(abs, shown, realRoot));
        // Whatever it is: a link to a pipe left out may come to lead to a file. A link's target
        // too: one further on may come to lead out of the root, to another name of the same file.
        seen.push({ abs, stamp: stampOf(info), real: linked ? real : undefined });
        if (info.isDirectory()) {
          const loop = path.find((p) => p.real === real);
          if (loop) {
            throw refused(
              shown,
              `is a symlink to the folder ${loop.shown ? `source/${loop.shown}` : "source"} ` +
                "that holds it (a loop)",
            );
          }
          folders.push({ abs, rel: r, step: { real, shown } });
        } else if (info.isFile()) {
          tally.add(shown, info.size);
          files.push(new FolderFile(abs, r, info));
        }
        // Anything else (a FIFO, a socket, a device) is not a file of the app: left out.
      }
      // Handed on once the batch passed the size limits: no file is read for a check that fails.
      for (const f of files) {
        out.push(f);
        found?.(f);
      }
      for (const d of folders) await walk(d.abs, d.rel, [...path, d.step]);
    }
  };
  await walk(root, "", [{ real: realRoot, shown: "" }]);
  return { files: out, ignore: ig, seen };
}
