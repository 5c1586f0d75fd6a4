import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { hashSource } from "../../src/provider/app/source-hash";
import { setRacyWindowMs } from "../../src/provider/app/source-index";
import { forgetWalks } from "../../src/provider/app/walk-memo";

/*
 * Index files for the tests of the source-hash index: a cache folder of the test's own (its one
 * index file is the tree's, found as a user would find it), and a sound index that lies.
 */

export const manifest = { name: "indexed" };

/**
 * A work folder for the file's tests, with HOSTING_CACHE_DIR in it (`work()/cache`); afterAll
 * restores the environment and the racy window, and removes the folder.
 */
export function useSourceWork(prefix: string): () => string {
  let work = "";
  const saved = { cache: process.env.HOSTING_CACHE_DIR, off: process.env.HOSTING_SOURCE_INDEX };
  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), prefix));
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
  return () => work;
}

/**
 * The hash as a new process makes it (a later `pulumi preview`): no walk is kept from the hashes
 * before (walk-memo.ts), so what it does not read it takes from the index.
 */
export function hashAnew(root: string): Promise<string> {
  forgetWalks();
  return hashSource(root, manifest);
}

/** The hash with HOSTING_SOURCE_INDEX=off: no cache of any kind, every file read. */
export async function hashWithoutIndex(root: string): Promise<string> {
  process.env.HOSTING_SOURCE_INDEX = "off";
  try {
    return await hashSource(root, manifest);
  } finally {
    delete process.env.HOSTING_SOURCE_INDEX;
  }
}

/** HOSTING_CACHE_DIR set to a folder of its own under `work`; `file()` is the one index in it. */
export function ownCache(work: string, name: string) {
  process.env.HOSTING_CACHE_DIR = join(work, `cache-${name}`);
  const folder = join(process.env.HOSTING_CACHE_DIR, "source-index");
  return {
    folder,
    async file(): Promise<string> {
      const names = await readdir(folder);
      expect(names).toHaveLength(1);
      return join(folder, names[0]);
    },
  };
}

/** An index as it is stored. */
export type IndexData = { files: Record<string, unknown[]> } & Record<string, unknown>;

/**
 * A tree of a.js, b.js and 0 (in a cache folder of its own), hashed once (the truth), and its
 * sound index with the hashes of a.js and 0 made lies: believed as it is, so an index that should
 * be ignored and is not shows as a wrong hash.
 */
export async function lyingIndex(work: string, name: string) {
  setRacyWindowMs(0);
  const cache = ownCache(work, name);
  const root = join(work, name);
  await mkdir(root);
  await writeFile(join(root, "a.js"), "one");
  await writeFile(join(root, "b.js"), "two");
  await writeFile(join(root, "0"), "zero");
  await sleep(20); // past the racy window: every file is kept
  const truth = await hashAnew(root);
  const path = await cache.file();
  const lying = JSON.parse(await readFile(path, "utf8")) as IndexData;
  const lie = "0".repeat(64);
  lying.files["a.js"][5] = lie;
  lying.files["0"][5] = lie;
  return { root, truth, path, lying, lie, cache };
}
