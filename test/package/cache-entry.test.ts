import { execFileSync, spawn } from "node:child_process";
import {
  appendFileSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cacheBase, ensureEntry, entryReady, toolCache } from "../../scripts/cache-entry";
import { cacheDirectory } from "../../src/connection/environment";

/*
 * The caches this repository makes (the CLI, SDKs, a venv, Go builds) are entries of
 * scripts/cache-entry.js: made in place under a lock, stamped last, and trusted only where they
 * were made and when their check passes. What a user would hit otherwise: a venv made in a temp
 * folder and renamed keeps the temp path in every script, so every later run failed with ENOENT.
 */

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "cache-entry-"));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** A make that counts its runs in a file beside the entry. */
const counted = (marker: string) => (at: string) => {
  appendFileSync(marker, "x");
  writeFileSync(join(at, "thing"), "made");
};
const runs = (marker: string) => (existsSync(marker) ? readFileSync(marker, "utf8").length : 0);

test("an entry is made once, then reused as it is", () => {
  const marker = join(root, "runs");
  const dir = join(root, "entry");
  expect(ensureEntry(dir, counted(marker))).toBe(dir);
  expect(ensureEntry(dir, counted(marker))).toBe(dir);
  expect(runs(marker)).toBe(1);
  expect(readFileSync(join(dir, "thing"), "utf8")).toBe("made");
});

test("a half-made entry (its maker failed or was killed) is made again, from empty", () => {
  const marker = join(root, "runs");
  const dir = join(root, "entry");
  expect(() =>
    ensureEntry(dir, (at) => {
      writeFileSync(join(at, "partial"), "half");
      throw new Error("disk full");
    }),
  ).toThrow("disk full");
  expect(entryReady(dir)).toBe(false);
  ensureEntry(dir, counted(marker));
  expect(runs(marker)).toBe(1);
  expect(existsSync(join(dir, "partial"))).toBe(false);
});

test("an entry moved elsewhere is not trusted there: it is made again in its new place", () => {
  const marker = join(root, "runs");
  ensureEntry(join(root, "a"), counted(marker));
  renameSync(join(root, "a"), join(root, "b"));
  expect(entryReady(join(root, "b"))).toBe(false);
  ensureEntry(join(root, "b"), counted(marker));
  expect(runs(marker)).toBe(2);
});

test("an entry whose own check fails is made again; one whose make leaves it failing throws", () => {
  const marker = join(root, "runs");
  const dir = join(root, "entry");
  ensureEntry(dir, counted(marker));
  rmSync(join(dir, "thing"));
  const check = (at: string) => existsSync(join(at, "thing"));
  ensureEntry(dir, counted(marker), { check });
  expect(runs(marker)).toBe(2);
  expect(() => ensureEntry(join(root, "other"), () => undefined, { check })).toThrow(
    "fails its own check",
  );
});

const python = spawnSyncOk("python3", ["-c", "import venv"]);
(python ? test : test.skip)(
  "a venv made as an entry works where it is; moved, it is made again and works there",
  () => {
    const prefix = (at: string) =>
      execFileSync(join(at, "bin", "python"), ["-c", "import sys; print(sys.prefix)"])
        .toString()
        .trim();
    const make = (at: string) => execFileSync("python3", ["-m", "venv", "--without-pip", at]);
    const check = (at: string) => prefix(at) === at;
    const first = ensureEntry(join(root, "venv"), make, { check });
    expect(prefix(first)).toBe(first);
    renameSync(first, join(root, "moved"));
    const again = ensureEntry(join(root, "moved"), make, { check });
    expect(prefix(again)).toBe(again);
  },
);

test("two processes asking for one entry at once: one makes it, the other takes it", async () => {
  const marker = join(root, "runs");
  const dir = join(root, "entry");
  const script =
    `const { ensureEntry } = require(${JSON.stringify(require.resolve("../../scripts/cache-entry"))});` +
    `const fs = require("node:fs");` +
    `ensureEntry(${JSON.stringify(dir)}, (at) => {` +
    `  fs.appendFileSync(${JSON.stringify(marker)}, "x");` +
    `  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1500);` +
    `  fs.writeFileSync(at + "/thing", "made");` +
    `});` +
    `process.stdout.write(fs.readFileSync(${JSON.stringify(dir)} + "/thing", "utf8"));`;
  const one = () =>
    new Promise<string>((resolve, reject) => {
      const child = spawn(process.execPath, ["-e", script], {
        stdio: ["ignore", "pipe", "inherit"],
      });
      let out = "";
      child.stdout.on("data", (d: Buffer) => (out += d.toString()));
      child.on("error", reject);
      child.on("exit", (code) => (code === 0 ? resolve(out) : reject(new Error(`exit ${code}`))));
    });
  expect(await Promise.all([one(), one()])).toEqual(["made", "made"]);
  expect(runs(marker)).toBe(1);
}, 30_000);

describe("where the caches are", () => {
  const saved = { ...process.env };
  afterEach(() => {
    for (const k of ["HOSTING_CACHE_DIR", "XDG_CACHE_HOME", "HOSTING_TOOL_CACHE"]) {
      if (saved[k] === undefined) delete process.env[k];
      else process.env[k] = saved[k];
    }
  });

  test("HOSTING_CACHE_DIR, else XDG_CACHE_HOME's, else ~/.cache's: the provider's own rule", () => {
    process.env.HOSTING_CACHE_DIR = "/tmp/hosting-cache";
    process.env.XDG_CACHE_HOME = "/tmp/xdg";
    expect(cacheBase()).toBe("/tmp/hosting-cache");
    expect(cacheBase()).toBe(cacheDirectory());
    delete process.env.HOSTING_CACHE_DIR;
    expect(cacheBase()).toBe("/tmp/xdg/pulumi-hosting");
    expect(cacheBase()).toBe(cacheDirectory());
    delete process.env.XDG_CACHE_HOME;
    expect(cacheBase()).toBe(cacheDirectory());
  });

  test("the tools' folder is the one recorded before the tests moved HOSTING_CACHE_DIR", () => {
    process.env.HOSTING_TOOL_CACHE = "/tmp/tools";
    process.env.HOSTING_CACHE_DIR = "/tmp/hosting-cache";
    expect(toolCache()).toBe("/tmp/tools");
    delete process.env.HOSTING_TOOL_CACHE;
    expect(toolCache()).toBe("/tmp/hosting-cache");
  });
});

function spawnSyncOk(cmd: string, args: string[]): boolean {
  try {
    execFileSync(cmd, args, { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}
