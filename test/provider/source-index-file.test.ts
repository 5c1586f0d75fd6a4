import { execFileSync } from "node:child_process";
import { closeSync, openSync, readFileSync } from "node:fs";
import {
  chmod,
  chown,
  lstat,
  mkdir,
  mkdtemp,
  open,
  readdir,
  readFile,
  rm,
  symlink,
  writeFile,
} from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import {
  setIndexDeadlineMs,
  setRacyWindowMs,
  SourceIndex,
  type FileStamp,
} from "../../src/provider/app/source-index";
import { hashAnew, lyingIndex } from "../helpers/source-index";
import { testIf } from "../helpers/test-if";
import { until } from "../helpers/until";

/*
 * What stands where the source index should be is looked at before it is opened: a FIFO (which
 * `pulumi preview` once waited on for ever), a folder, a link (to /dev/zero, or to an index that
 * lies), a file past the size bound, one another user may write or owns. Each is ignored,
 * never read: the hash is the tree's, at once, and the index is written anew where it can be.
 * A file system that hangs (every thread of libuv's pool held, as a dead NFS server holds them)
 * costs the hash no more than the deadline, for reading the index and for writing it.
 */

let work: string;
const saved = process.env.HOSTING_CACHE_DIR;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "source-index-file-"));
});
afterAll(async () => {
  setRacyWindowMs(undefined);
  setIndexDeadlineMs(undefined);
  if (saved === undefined) delete process.env.HOSTING_CACHE_DIR;
  else process.env.HOSTING_CACHE_DIR = saved;
  await rm(work, { recursive: true, force: true });
});

let n = 0;
/** The lying index of a tree of its own, with `put` standing where its file was. */
async function replaced(put: (path: string, text: string) => Promise<void>) {
  const tree = await lyingIndex(work, `tree-${n++}`);
  const text = JSON.stringify(tree.lying);
  await rm(tree.path);
  await put(tree.path, text);
  return { ...tree, text };
}

/** The file at `path` is a sound index of the tree again, and no temporary file is left. */
async function rebuilt(path: string, lie: string): Promise<void> {
  expect((await lstat(path)).isFile()).toBe(true);
  const files = JSON.parse(await readFile(path, "utf8")).files;
  expect(Object.keys(files).sort()).toEqual(["0", "a.js", "b.js"]);
  expect(files["a.js"][5]).not.toBe(lie);
}

const isRoot = process.getuid?.() === 0;

/** Writes `text` with exactly `mode` (writeFile's passes through the umask). */
async function withMode(path: string, text: string, mode: number): Promise<void> {
  await writeFile(path, text);
  await chmod(path, mode);
}

test.each<[string, (path: string, text: string) => Promise<void>]>([
  ["a FIFO", async (path) => void execFileSync("mkfifo", [path])],
  ["a link to /dev/zero", (path) => symlink("/dev/zero", path)],
  [
    "a link to the lying index",
    async (path, text) => {
      await writeFile(`${path}.target`, text);
      await symlink(`${path}.target`, path);
    },
  ],
  [
    "the lying index past 64 MiB (spaces after it)",
    async (path, text) => {
      await writeFile(path, text);
      const fh = await open(path, "a");
      try {
        const spaces = Buffer.alloc(1 << 20, " ");
        for (let i = 0; i < 64; i++) await fh.write(spaces);
      } finally {
        await fh.close();
      }
    },
  ],
  ["the lying index, writable by its group", (path, text) => withMode(path, text, 0o620)],
  ["the lying index, writable by all", (path, text) => withMode(path, text, 0o602)],
])("%s where the index should be: ignored, never read, and rebuilt", async (_label, put) => {
  const { root, truth, path, lie } = await replaced(put);
  expect(await hashAnew(root)).toBe(truth);
  await rebuilt(path, lie);
});

test("a folder where the index should be: ignored, and no temporary file is left", async () => {
  const { root, truth, path, cache } = await replaced((path) => mkdir(path));
  expect(await hashAnew(root)).toBe(truth);
  // A file cannot be renamed over a folder: the index is not written, and nothing is left.
  expect((await lstat(path)).isDirectory()).toBe(true);
  expect(await readdir(cache.folder)).toEqual([basename(path)]);
});

testIf(isRoot, "chown needs root")(
  "the lying index owned by another user: ignored and rebuilt",
  async () => {
    const { root, truth, path, lie } = await replaced(async (path, text) => {
      await writeFile(path, text);
      await chown(path, 4321, 4321);
    });
    expect(await hashAnew(root)).toBe(truth);
    await rebuilt(path, lie);
  },
);

/**
 * Runs `fn` while every thread of libuv's pool waits in the open of a FIFO, as threads wait on
 * a file system that hangs: no file operation of this process goes on until they are let go.
 */
async function withFileSystemHung<T>(fn: () => Promise<T>): Promise<T> {
  const threads = Number(process.env.UV_THREADPOOL_SIZE) || 4;
  const fifos = Array.from({ length: threads }, (_, i) => join(work, `hung-${n++}-${i}`));
  for (const f of fifos) execFileSync("mkfifo", [f]);
  const waiting = fifos.map((f) => open(f, "r"));
  try {
    return await fn();
  } finally {
    // Opened for reading and writing, on this thread (Linux never waits on that): a writer
    // appears, and the pool's opens return.
    const fds = fifos.map((f) => openSync(f, "r+"));
    for (const fh of await Promise.all(waiting)) await fh.close();
    for (const fd of fds) closeSync(fd);
  }
}

/** `p`, or "hung" after `ms`: a test that would otherwise wait for ever fails instead. */
async function orHung<T>(p: Promise<T>, ms = 5000): Promise<T | "hung"> {
  const giveUp = new AbortController();
  try {
    return await Promise.race([p, sleep(ms, "hung" as const, { signal: giveUp.signal })]);
  } finally {
    giveUp.abort();
  }
}

test("reading the index on a file system that hangs: given up at the deadline", async () => {
  const { root, lying, lie } = await lyingIndex(work, `hung-read`);
  const stampOf = (name: string): FileStamp => {
    const [dev, ino, size, mtimeMs, ctimeMs] = lying.files[name] as number[];
    return { dev, ino, size, mtimeMs, ctimeMs };
  };
  setIndexDeadlineMs(50);
  try {
    // The lie is at the path, sound: read, it would be believed.
    const index = await withFileSystemHung(() => orHung(SourceIndex.open(root)));
    expect(index).not.toBe("hung");
    let reads = 0;
    const sha = await (index as SourceIndex).digest("a.js", stampOf("a.js"), async () => {
      reads++;
      return "a".repeat(64);
    });
    expect([sha, reads]).toEqual(["a".repeat(64), 1]);
    expect(sha).not.toBe(lie);
  } finally {
    setIndexDeadlineMs(undefined);
  }
});

test("writing the index on a file system that hangs: given up at the deadline, finished after", async () => {
  const { root, path } = await lyingIndex(work, `hung-write`);
  const index = (await SourceIndex.open(root))!;
  const old = Date.now() - 60_000;
  await index.digest("new.js", { dev: 1, ino: 2, size: 3, mtimeMs: old, ctimeMs: old }, async () =>
    "c".repeat(64),
  );
  setIndexDeadlineMs(50);
  try {
    expect(await withFileSystemHung(() => orHung(index.save()))).not.toBe("hung");
  } finally {
    setIndexDeadlineMs(undefined);
  }
  // Let go, the write goes on by itself.
  await until(
    "the index to hold new.js",
    () => JSON.parse(readFileSync(path, "utf8")).files["new.js"]?.[5] === "c".repeat(64),
  );
});
