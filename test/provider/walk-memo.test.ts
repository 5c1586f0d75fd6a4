import { pbkdf2 } from "node:crypto";
import { chmod, mkdir, rename, rm, symlink, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { hashSource } from "../../src/provider/app/source-hash";
import { setRacyWindowMs } from "../../src/provider/app/source-index";
import { walkCounts } from "../../src/provider/app/walk-memo";
import { hashWithoutIndex, manifest, useSourceWork } from "../helpers/source-index";
import { tree } from "../helpers/source-trees";

/*
 * Many Apps of one program often share a source folder, and each App's check hashes it. The
 * folder is walked once per process and then only stat'ed, as long as nothing the walk saw has
 * changed: every change a user can make to a folder (a file added deep down, removed, renamed,
 * edited in place keeping its size, made executable, a link pointed elsewhere, .hostingignore
 * edited) is seen by the next check, which hashes exactly what a fresh walk without any cache
 * hashes. A folder written within the racy window is walked every time.
 */

useSourceWork("walk-memo-");
afterEach(() => setRacyWindowMs(undefined));

/** The hash with no cache of any kind: every folder listed, every file read. */
const fresh = hashWithoutIndex;

const counts = () => ({ ...walkCounts });
const since = (before: typeof walkCounts) => ({
  walked: walkCounts.walked - before.walked,
  kept: walkCounts.kept - before.kept,
});

/** A folder of a few files, two levels deep and a link to a folder, older than the racy window. */
async function settled(): Promise<string> {
  setRacyWindowMs(30);
  const root = await tree({
    "index.js": "console.log(1);\n",
    "lib/a.js": "a\n",
    "lib/deep/b.js": "b\n",
    "assets/one/logo.svg": "<svg/>\n",
    "assets/two/logo.svg": "<svg>2</svg>\n",
  });
  await symlink("assets/one", join(root, "current"));
  await sleep(40);
  return root;
}

test("200 checks of one folder walk it once; the hash is the fresh walk's", async () => {
  const root = await settled();
  const before = counts();
  const hashes = new Set<string>();
  for (let i = 0; i < 200; i++) hashes.add(await hashSource(root, manifest));
  expect(since(before)).toEqual({ walked: 1, kept: 199 });
  expect([...hashes]).toEqual([await fresh(root)]);
});

test("a check of a kept folder is answered while the thread pool is busy (creates packing)", async () => {
  const root = await settled();
  const first = await hashSource(root, manifest); // walked, every file read
  // Every thread of libuv's pool held by work that outlasts a check by far (about a second).
  let ended = 0;
  const busy = Array.from(
    { length: Number(process.env.UV_THREADPOOL_SIZE ?? 4) },
    () =>
      new Promise<void>((r) => pbkdf2("x", "y", 1_000_000, 64, "sha512", () => r(void ended++))),
  );
  const before = counts();
  const again = await hashSource(root, manifest);
  expect(ended).toBe(0); // answered before any of the pool's work ended: it waited for none
  expect(since(before)).toEqual({ walked: 0, kept: 1 });
  expect(again).toBe(first);
  await Promise.all(busy);
});

const changes: Array<[string, (root: string) => Promise<unknown>]> = [
  ["a file added two folders down", (r) => writeFile(join(r, "lib/deep/new.js"), "n\n")],
  ["a file removed", (r) => rm(join(r, "lib/a.js"))],
  ["a file renamed", (r) => rename(join(r, "lib/a.js"), join(r, "lib/z.js"))],
  ["a file edited in place, same size", (r) => writeFile(join(r, "lib/deep/b.js"), "c\n")],
  ["a file made executable", (r) => chmod(join(r, "index.js"), 0o755)],
  ["a folder added", (r) => mkdir(join(r, "lib/more"))],
  [
    "a link pointed at another folder",
    async (r) => {
      await rm(join(r, "current"));
      await symlink("assets/two", join(r, "current"));
    },
  ],
  ["a file added behind a link", (r) => writeFile(join(r, "assets/one/extra.svg"), "<svg/>\n")],
  [".hostingignore written", (r) => writeFile(join(r, ".hostingignore"), "lib/\n")],
];

test.each(changes)("%s is seen by the next check", async (what, change) => {
  const root = await settled();
  const first = await hashSource(root, manifest);
  const before = counts();
  expect(await hashSource(root, manifest)).toBe(first);
  expect(since(before)).toEqual({ walked: 0, kept: 1 }); // the kept walk answered
  await change(root);
  const after = await hashSource(root, manifest);
  expect(since(before)).toEqual({ walked: 1, kept: 1 }); // walked again, not answered from before
  expect(after).toBe(await fresh(root));
  // An empty folder is not uploaded: the only change that leaves the hash as it was.
  if (!what.startsWith("a folder added")) expect(after).not.toBe(first);
});

test("an edit of .hostingignore is seen", async () => {
  const root = await settled();
  await writeFile(join(root, ".hostingignore"), "assets/\n");
  await sleep(40);
  const first = await hashSource(root, manifest);
  expect(await hashSource(root, manifest)).toBe(first); // kept
  await writeFile(join(root, ".hostingignore"), "lib/\n");
  const after = await hashSource(root, manifest);
  expect(after).not.toBe(first);
  expect(after).toBe(await fresh(root));
});

test("a folder written within the racy window is walked every time", async () => {
  setRacyWindowMs(undefined); // the default, 2 s
  const root = await tree({ "index.js": "1\n" });
  const before = counts();
  for (let i = 0; i < 3; i++) await hashSource(root, manifest);
  expect(since(before)).toEqual({ walked: 3, kept: 0 });
});

test("HOSTING_SOURCE_INDEX=off walks every time", async () => {
  const root = await settled();
  await hashSource(root, manifest);
  const before = counts();
  for (let i = 0; i < 3; i++) await fresh(root);
  expect(since(before)).toEqual({ walked: 3, kept: 0 });
});

test("files given old mtimes (tar, rsync -t) are walked every time while their ctimes are recent", async () => {
  setRacyWindowMs(undefined); // the default, 2 s
  const root = await tree({ "index.js": "1\n", "lib/a.js": "a\n" });
  const old = new Date(Date.now() - 3_600_000);
  for (const p of ["index.js", "lib/a.js", "lib", "."]) await utimes(join(root, p), old, old);
  const before = counts();
  for (let i = 0; i < 3; i++) await hashSource(root, manifest);
  expect(since(before)).toEqual({ walked: 3, kept: 0 });
});

test("a change among hundreds of files is seen wherever it is", async () => {
  const files: Record<string, string> = {};
  for (let i = 0; i < 300; i++) files[`f/${String(i).padStart(3, "0")}.js`] = `${i}\n`;
  setRacyWindowMs(30);
  const root = await tree(files);
  await sleep(40);
  const first = await hashSource(root, manifest);
  expect(await hashSource(root, manifest)).toBe(first);
  await writeFile(join(root, "f/299.js"), "edited\n"); // the last file looked at
  const after = await hashSource(root, manifest);
  expect(after).not.toBe(first);
  expect(after).toBe(await fresh(root));
});

test("at most 32 folders are kept: the one walked longest ago is walked again", async () => {
  const roots: string[] = [];
  setRacyWindowMs(30);
  for (let i = 0; i < 33; i++) roots.push(await tree({ "index.js": `${i}\n` }));
  await sleep(40);
  for (const root of roots) await hashSource(root, manifest);
  let before = counts();
  await hashSource(roots[32], manifest);
  await hashSource(roots[1], manifest);
  expect(since(before)).toEqual({ walked: 0, kept: 2 });
  before = counts();
  await hashSource(roots[0], manifest);
  expect(since(before)).toEqual({ walked: 1, kept: 0 });
});

test("one file written within the racy window keeps the whole walk from being kept", async () => {
  setRacyWindowMs(1000);
  const root = await tree({ "index.js": "1\n", "lib/a.js": "a\n", "lib/b.js": "b\n" });
  await sleep(1100);
  await writeFile(join(root, "lib/b.js"), "B\n"); // the rest is older than the window
  const before = counts();
  for (let i = 0; i < 3; i++) await hashSource(root, manifest);
  expect(since(before)).toEqual({ walked: 3, kept: 0 });
});
