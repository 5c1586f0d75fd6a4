import fc from "fast-check";
import { mkdir, mkdtemp, readFile, rename, rm, stat, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { hashSource } from "../../src/provider/app/source-hash";
import { indexCounts, setRacyWindowMs } from "../../src/provider/app/source-index";

/*
 * The source-hash index (a cache outside the tree, per source root) must never change a hash:
 * random trees under random edits, edits that keep a file's size and mtime among them, hash the
 * same with the index as without it. A cache that is corrupt, of another version or unwritable
 * is ignored; a file changed within the racy window is read again.
 */

const manifest = { name: "indexed" };
let work: string;
const saved = { cache: process.env.HOSTING_CACHE_DIR, off: process.env.HOSTING_SOURCE_INDEX };

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "source-index-"));
  process.env.HOSTING_CACHE_DIR = join(work, "cache");
});
afterAll(async () => {
  setRacyWindowMs(undefined);
  for (const [k, v] of [
    ["HOSTING_CACHE_DIR", saved.cache],
    ["HOSTING_SOURCE_INDEX", saved.off],
  ] as const) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  await rm(work, { recursive: true, force: true });
});

async function withoutIndex(root: string): Promise<string> {
  process.env.HOSTING_SOURCE_INDEX = "off";
  try {
    return await hashSource(root, manifest);
  } finally {
    delete process.env.HOSTING_SOURCE_INDEX;
  }
}

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
        expect(await hashSource(root, manifest)).toBe(await withoutIndex(root));
        const hitsBefore = indexCounts.hits;
        expect(await hashSource(root, manifest)).toBe(await withoutIndex(root));
        expect(indexCounts.hits).toBeGreaterThan(hitsBefore); // the index did answer
        for (const e of edits) {
          await apply(root, e);
          const none = await withoutIndex(root).catch((err: Error) => err.message);
          const indexed = await hashSource(root, manifest).catch((err: Error) => err.message);
          expect(indexed).toBe(none);
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
  const first = await hashSource(root, manifest);
  await apply(root, { kind: "same-size", file: 0, byte: 98 }); // "baaa", same size and mtime
  const reads = indexCounts.reads;
  const second = await hashSource(root, manifest);
  expect(second).not.toBe(first);
  expect(second).toBe(await withoutIndex(root));
  expect(indexCounts.reads).toBeGreaterThan(reads);
});

test("a corrupt index, or one of another version, is ignored and rebuilt", async () => {
  setRacyWindowMs(0);
  const root = join(work, "corrupt");
  await mkdir(root);
  await writeFile(join(root, "a.js"), "one");
  await sleep(20);
  const truth = await hashSource(root, manifest); // writes the index
  const { readdir } = await import("node:fs/promises");
  const dir = join(process.env.HOSTING_CACHE_DIR!, "source-index");
  const files = await readdir(dir);
  const mine = [];
  for (const f of files) {
    const text = await readFile(join(dir, f), "utf8");
    if (JSON.parse(text).root.endsWith("corrupt")) mine.push({ f, text });
  }
  expect(mine).toHaveLength(1);
  const path = join(dir, mine[0].f);
  const lying = JSON.parse(mine[0].text);
  lying.files["a.js"][5] = "0".repeat(64); // a wrong hash with the right stamp
  for (const text of [
    "{ not json",
    JSON.stringify({ ...lying, version: "0.0.0-other" }),
    JSON.stringify({ ...lying, format: "another format" }),
    JSON.stringify({ ...lying, files: { "a.js": [1, 2, 3] } }),
  ]) {
    await writeFile(path, text);
    expect(await hashSource(root, manifest)).toBe(truth);
    // Rebuilt: the file now holds a sound index again.
    expect(JSON.parse(await readFile(path, "utf8")).files["a.js"][5]).not.toBe("0".repeat(64));
  }
  // The same lie with the right version would be believed: the test above tells the difference.
  await writeFile(path, JSON.stringify(lying));
  expect(await hashSource(root, manifest)).not.toBe(truth);
  await rm(path);
});

test("an unwritable cache folder leaves hashing as it is", async () => {
  const root = join(work, "unwritable");
  await mkdir(root);
  await writeFile(join(root, "a.js"), "x");
  const blocked = join(work, "not-a-folder");
  await writeFile(blocked, "a file where the cache folder would go");
  process.env.HOSTING_CACHE_DIR = blocked;
  try {
    expect(await hashSource(root, manifest)).toBe(await withoutIndex(root));
  } finally {
    process.env.HOSTING_CACHE_DIR = join(work, "cache");
  }
});
