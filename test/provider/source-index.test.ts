import fc from "fast-check";
import { existsSync, readdirSync } from "node:fs";
import { mkdir, readFile, rename, rm, stat, utimes, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { hashSource } from "../../src/provider/app/source-hash";
import {
  indexCounts,
  setRacyWindowMs,
  SourceIndex,
  type FileStamp,
} from "../../src/provider/app/source-index";
import {
  hashAnew,
  hashWithoutIndex,
  lyingIndex,
  manifest,
  ownCache,
  useSourceWork,
  type IndexData,
} from "../helpers/source-index";
import { testIf } from "../helpers/test-if";

/*
 * The source-hash index (a cache outside the tree, per source root) must never change a hash:
 * random trees under random edits, edits that keep a file's size and mtime among them, hash the
 * same with the index as without it. An edit is seen (the edited file alone is read again); a
 * stamp that differs in any of its five parts is read again, as on a file system whose ctime
 * does not move; a file changed within the racy window is read again. A cache that is corrupt
 * anywhere, of another version or root, or unwritable is ignored; one of an unchanged tree is not
 * rewritten. Index files that are not what they should be: source-index-file.test.ts. Each hash
 * is a new process's (hashAnew): within one process, a kept walk answers first (walk-memo.ts).
 */

const workDir = useSourceWork("source-index-");
let work: string;

beforeAll(() => {
  work = workDir();
});
afterEach(() => {
  process.env.HOSTING_CACHE_DIR = join(work, "cache");
});

const withoutIndex = hashWithoutIndex;

const NAMES = ["a.js", "b.txt", "lib/c.js", "lib/d.bin", "lib/deep/e.json", "f"];

type Edit =
  | { kind: "same-size"; file: number; byte: number } // size and mtime kept
  | { kind: "append"; file: number; text: string }
  | { kind: "delete"; file: number }
  | { kind: "replace"; file: number; byte: number } // a new inode, size and mtime kept
  | { kind: "touch"; file: number }
  | { kind: "create"; file: number; text: string };

const edit: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({ kind: fc.constant("same-size" as const), file: fc.nat(5), byte: fc.nat(255) }),
  fc.record({ kind: fc.constant("append" as const), file: fc.nat(5), text: fc.string() }),
  fc.record({ kind: fc.constant("delete" as const), file: fc.nat(5) }),
  fc.record({ kind: fc.constant("replace" as const), file: fc.nat(5), byte: fc.nat(255) }),
  fc.record({ kind: fc.constant("touch" as const), file: fc.nat(5) }),
  fc.record({ kind: fc.constant("create" as const), file: fc.nat(5), text: fc.string() }),
);

async function apply(root: string, e: Edit): Promise<void> {
  const path = join(root, NAMES[e.file]);
  const before = await stat(path).catch(() => undefined);
  if (e.kind === "create") {
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, e.text);
    return;
  }
  if (!before) return;
  if (e.kind === "delete") return rm(path);
  if (e.kind === "touch") return utimes(path, before.atime, new Date(before.mtimeMs + 1000));
  if (e.kind === "append") return writeFile(path, e.text, { flag: "a" });
  const bytes = await readFile(path);
  if (bytes.length === 0) return;
  bytes[0] = bytes[0] === e.byte ? (e.byte + 1) % 256 : e.byte;
  if (e.kind === "same-size") await writeFile(path, bytes);
  else {
    await writeFile(`${path}.new`, bytes);
    await rename(`${path}.new`, path);
  }
  await utimes(path, before.atime, before.mtime);
}

test("random trees and random edits: the same hash with the index as without", async () => {
  // A short racy window, waited out once per tree, so the index does answer for old files.
  setRacyWindowMs(30);
  let run = 0;
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.tuple(fc.nat(5), fc.uint8Array({ maxLength: 300 })), {
        minLength: 1,
        maxLength: 6,
      }),
      fc.array(edit, { minLength: 1, maxLength: 6 }),
      async (files, edits) => {
        const root = join(work, `tree-${run++}`);
        // Whole-second mtimes: an edit can then put back exactly the mtime it found.
        const old = new Date(Math.floor(Date.now() / 1000) * 1000 - 10_000);
        for (const [i, bytes] of files) {
          await mkdir(dirname(join(root, NAMES[i])), { recursive: true });
          await writeFile(join(root, NAMES[i]), bytes);
          await utimes(join(root, NAMES[i]), old, old);
        }
        await sleep(40);
        expect(await hashAnew(root)).toBe(await withoutIndex(root));
        const hitsBefore = indexCounts.hits;
        expect(await hashAnew(root)).toBe(await withoutIndex(root));
        expect(indexCounts.hits).toBeGreaterThan(hitsBefore); // the index did answer
        for (const e of edits) {
          await apply(root, e);
          // First this process's check: the walk and digests kept before the edit must not answer.
          const inProcess = await hashSource(root, manifest).catch((err: Error) => err.message);
          const none = await withoutIndex(root).catch((err: Error) => err.message);
          const indexed = await hashAnew(root).catch((err: Error) => err.message);
          expect(indexed).toBe(none);
          expect(inProcess).toBe(none);
        }
      },
    ),
    { numRuns: 25 },
  );
}, 120_000);

test("a file changed within the racy window is read again, though size and mtime are kept", async () => {
  setRacyWindowMs(undefined); // the default: files changed in the last 2 s are racy
  const root = join(work, "racy");
  await mkdir(root);
  await writeFile(join(root, NAMES[0]), "aaaa");
  const first = await hashAnew(root);
  await apply(root, { kind: "same-size", file: 0, byte: 98 }); // "baaa", same size and mtime
  const reads = indexCounts.reads;
  const second = await hashAnew(root);
  expect(second).not.toBe(first);
  expect(second).toBe(await withoutIndex(root));
  expect(indexCounts.reads).toBeGreaterThan(reads);
});

/** Files read since `before` (a copy of indexCounts.reads). */
const readSince = (before: number) => indexCounts.reads - before;

test("an edit outside the racy window is seen, and only the edited file is read again", async () => {
  setRacyWindowMs(30);
  const root = join(work, "edited");
  await mkdir(root);
  await writeFile(join(root, "a.js"), "one");
  await writeFile(join(root, "b.js"), "two");
  await sleep(40);
  const before = await hashAnew(root);
  let reads = indexCounts.reads;
  expect(await hashAnew(root)).toBe(before);
  expect(readSince(reads)).toBe(0); // the index answered for both
  await writeFile(join(root, "a.js"), "one, edited");
  await sleep(40);
  reads = indexCounts.reads;
  const after = await hashAnew(root);
  expect(readSince(reads)).toBe(1);
  expect(after).not.toBe(before);
  expect(after).toBe(await withoutIndex(root));
  // The edit and the unchanged file are both in the index now: nothing is read.
  reads = indexCounts.reads;
  expect(await hashAnew(root)).toBe(after);
  expect(readSince(reads)).toBe(0);
});

test("an unchanged tree leaves its index as it is; a deleted file's entry is dropped", async () => {
  setRacyWindowMs(0);
  const cache = ownCache(work, "unchanged");
  const root = join(work, "unchanged");
  await mkdir(root);
  await writeFile(join(root, "a.js"), "one");
  await writeFile(join(root, "b.js"), "two");
  await sleep(20);
  await hashAnew(root);
  const file = await cache.file();
  // The user's own: a folder and a file no one else may read.
  expect((await stat(cache.folder)).mode & 0o777).toBe(0o700);
  expect((await stat(file)).mode & 0o777).toBe(0o600);
  const written = await stat(file);
  await hashAnew(root);
  const after = await stat(file);
  expect([after.ino, after.mtimeMs]).toEqual([written.ino, written.mtimeMs]);
  await rm(join(root, "b.js"));
  await hashAnew(root);
  expect(Object.keys(JSON.parse(await readFile(file, "utf8")).files)).toEqual(["a.js"]);
});

/*
 * The index's own bookkeeping, through its interface: stamps as a file system may report them
 * (one whose ctime does not move, or moves in coarse ticks, shows an edit in one part only).
 */
const SHA_A = "a".repeat(64);
const SHA_B = "b".repeat(64);
const PARTS = ["dev", "ino", "size", "mtimeMs", "ctimeMs"] as const;

/** A read of one file that counts its calls. */
function reader(sha: string) {
  const read = Object.assign(async () => (read.calls++, sha), { calls: 0 });
  return read;
}

/** Hashes `name` with `stamp` into a fresh index of `root` and saves it. */
async function indexed(root: string, name: string, stamp: FileStamp): Promise<void> {
  const index = (await SourceIndex.open(root))!;
  await index.digest(name, stamp, reader(SHA_A));
  await index.save();
}

test.each(PARTS)("a stamp that differs only in %s: the file is read again", async (part) => {
  setRacyWindowMs(undefined);
  const root = join(work, `stamp-${part}`);
  const old = Date.now() - 60_000;
  const stamp: FileStamp = { dev: 1, ino: 2, size: 3, mtimeMs: old, ctimeMs: old };
  await indexed(root, "f", stamp);
  const index = (await SourceIndex.open(root))!;
  const unchanged = reader(SHA_B);
  expect(await index.digest("f", stamp, unchanged)).toBe(SHA_A);
  expect(unchanged.calls).toBe(0);
  const edited = reader(SHA_B);
  expect(await index.digest("f", { ...stamp, [part]: stamp[part] - 1 }, edited)).toBe(SHA_B);
  expect(edited.calls).toBe(1);
});

test.each([
  ["changed 3 s before it was hashed", true, -3000, -3000, undefined],
  ["changed 1 s before it was hashed", false, -1000, -1000, undefined],
  ["with its mtime old and its ctime 1 s before", false, -60_000, -1000, undefined],
  ["with its ctime old and its mtime 1 s before", false, -1000, -60_000, undefined],
  ["dated a minute later than the hash", false, 60_000, 60_000, undefined],
  ["changed 1 s before, with a 500 ms racy window", true, -1000, -1000, 500],
])("a file %s: kept %s", async (label, kept, mtime, ctime, racy) => {
  setRacyWindowMs(100); // another window first: `undefined` must bring back the default (2 s)
  setRacyWindowMs(racy);
  const root = join(work, `racy-${label}`);
  const now = Date.now();
  const stamp = { dev: 1, ino: 2, size: 3, mtimeMs: now + mtime, ctimeMs: now + ctime };
  await indexed(root, "f", stamp);
  const read = reader(SHA_B);
  await (await SourceIndex.open(root))!.digest("f", stamp, read);
  expect(read.calls).toBe(kept ? 0 : 1);
});

const damaged = (b: (entry: unknown[]) => unknown[]) => (ix: IndexData) =>
  JSON.stringify({ ...ix, files: { ...ix.files, "b.js": b(ix.files["b.js"]) } });

test.each<[string, (ix: IndexData) => string]>([
  ["not JSON", () => "{ not json"],
  ["null", () => "null"],
  ["of another package version", (ix) => JSON.stringify({ ...ix, version: "0.0.0-other" })],
  ["of another format", (ix) => JSON.stringify({ ...ix, format: "another format" })],
  ["of another root", (ix) => JSON.stringify({ ...ix, root: "/somewhere/else" })],
  ["with files null", (ix) => JSON.stringify({ ...ix, files: null })],
  // A list's entries would be taken as files named "0", "1", ...
  ["with files a list", (ix) => JSON.stringify({ ...ix, files: [ix.files["0"]] })],
  ["with an entry of three numbers", damaged(() => [1, 2, 3])],
  ["with an entry of seven parts", damaged((e) => [...e, 7])],
  ["with a text among an entry's numbers", damaged((e) => ["1", ...e.slice(1)])],
  ["with a hash that is no sha256", damaged((e) => [...e.slice(0, 5), "not a hash"])],
  ["with a hash one digit too long", damaged((e) => [...e.slice(0, 5), `${e[5]}0`])],
  ["with a hash behind a letter", damaged((e) => [...e.slice(0, 5), `x${e[5]}`])],
  ["with a hash in a list", damaged((e) => [...e.slice(0, 5), [e[5]]])],
  // JSON has no Infinity, but 1e999 parses to it.
  [
    "with an infinite size",
    (ix) => damaged((e) => [...e.slice(0, 2), -7, ...e.slice(3)])(ix).replace("-7", "1e999"),
  ],
])("an index %s is ignored and rebuilt", async (label, text) => {
  const { root, truth, path, lying, lie } = await lyingIndex(
    work,
    `damaged-${label.replace(/\W+/g, "-")}`,
  );
  await writeFile(path, text(lying));
  expect(await hashAnew(root)).toBe(truth);
  // Rebuilt: the file now holds a sound index again.
  const rebuilt = JSON.parse(await readFile(path, "utf8"));
  expect(Object.keys(rebuilt.files).sort()).toEqual(["0", "a.js", "b.js"]);
  expect(rebuilt.files["a.js"][5]).not.toBe(lie);
});

test("the same lie in a sound index is believed (the tests above tell the difference), unless HOSTING_SOURCE_INDEX=off", async () => {
  const { root, truth, path, lying } = await lyingIndex(work, "believed");
  await writeFile(path, JSON.stringify(lying));
  expect(await withoutIndex(root)).toBe(truth);
  expect(await hashAnew(root)).not.toBe(truth);
});

testIf(existsSync("/proc/self/fd"), "counting open files needs /proc/self/fd")(
  "hash after hash, each reading and writing the index, leaves no file open",
  async () => {
    setRacyWindowMs(0);
    const root = join(work, "no-leak");
    await mkdir(root);
    await writeFile(join(root, "a.js"), "start");
    await hashAnew(root);
    const openFiles = () => readdirSync("/proc/self/fd").length;
    const before = openFiles();
    for (let i = 0; i < 20; i++) {
      await writeFile(join(root, "a.js"), `edit ${i}`); // so each hash writes the index again
      await hashAnew(root);
    }
    expect(openFiles() - before).toBeLessThan(10);
  },
);

test("an unwritable cache folder leaves hashing as it is", async () => {
  const root = join(work, "unwritable");
  await mkdir(root);
  await writeFile(join(root, "a.js"), "x");
  const blocked = join(work, "not-a-folder");
  await writeFile(blocked, "a file where the cache folder would go");
  process.env.HOSTING_CACHE_DIR = blocked;
  try {
    expect(await hashAnew(root)).toBe(await withoutIndex(root));
  } finally {
    process.env.HOSTING_CACHE_DIR = join(work, "cache");
  }
});
