import { execFileSync } from "node:child_process";
import { renameSync, statSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { link, mkdir, rm, symlink, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { refuseMissingEntrypoint } from "../../src/provider/app/entrypoint";
import { hashSource, hashSourceFiles } from "../../src/provider/app/source-hash";
import { indexCounts, setRacyWindowMs } from "../../src/provider/app/source-index";
import { walkCounts } from "../../src/provider/app/walk-memo";
import { hashAnew, hashWithoutIndex, manifest, useSourceWork } from "../helpers/source-index";
import { tree } from "../helpers/source-trees";

/*
 * Changes a user makes to a source folder while one process checks it again and again, each
 * aimed at what the process keeps between checks (the kept walk and its files' digests,
 * walk-memo.ts and source-hash.ts) and at the index it leaves for the next process: after each,
 * the next check in the process and the first of a new one hash what a fresh walk without any
 * cache hashes, and the index the process leaves lets the next one read nothing it need not.
 */

const workDir = useSourceWork("walk-memo-attack-");
afterEach(() => setRacyWindowMs(undefined));

/** A hash, or the error that refused the source: a check must refuse what a fresh one refuses. */
const outcome = (hash: Promise<string>) => hash.catch((err: Error) => `refused: ${err.message}`);
/** The next check in this process, then the first of a new process, then a fresh hash. */
async function checks(root: string) {
  const inProcess = await outcome(hashSource(root, manifest));
  const newProcess = await outcome(hashAnew(root));
  // Last: a fresh walk is kept in place of the one the checks above were answered from.
  const fresh = await outcome(hashWithoutIndex(root));
  return { inProcess, newProcess, fresh };
}

/** A check refused (no server.js): it walks, and its walk is kept with no digest. */
const refused = (root: string) =>
  expect(
    hashSourceFiles(root, manifest, (l) => refuseMissingEntrypoint("server.js", root, l)),
  ).rejects.toThrow(/entrypoint "server.js"/);

/** `ln -sfn target path`: the link replaced in one step, as deploy tools flip a release. */
function flip(path: string, target: string): void {
  symlinkSync(target, `${path}.new`);
  renameSync(`${path}.new`, path);
}

test.each<[string, (root: string) => Promise<string>]>([
  ["in the source (ln -sfn current)", async (root) => join(root, "current")],
  [
    "outside the source, reached through a link in it",
    async (root) => {
      const outside = join(workDir(), `outside-${Date.now()}`);
      await mkdir(outside);
      await rm(join(root, "current"));
      await symlink(join(root, "releases/v1"), join(outside, "current"));
      await symlink(join(outside, "current"), join(root, "current"));
      return join(outside, "current");
    },
  ],
])(
  "a link flipped to another release while a check reads, then back: later checks hash what it leads to (%s)",
  async (_where, flipped) => {
    setRacyWindowMs(30);
    const root = await tree({
      "index.js": "i\n",
      "releases/v1/version.js": "exports.v = '1.2.3';\n",
      "releases/v2/version.js": "exports.v = '1.2.4';\n",
    });
    // As npm pack leaves files: one mtime for all, so the releases differ in their bytes alone.
    const packed = new Date("1985-10-26T08:15:00Z");
    for (const v of ["v1", "v2"])
      await utimes(join(root, `releases/${v}/version.js`), packed, packed);
    await symlink("releases/v1", join(root, "current"));
    const link = await flipped(root);
    const target = (v: string) =>
      link.startsWith(root) ? `releases/${v}` : join(root, "releases", v);
    await sleep(40);
    await refused(root);
    // The kept walk holds when this check starts; the release flips before its files are read.
    // Itself raced by the flip, it may answer or refuse; what it leaves must not be believed.
    await outcome(hashSourceFiles(root, manifest, () => flip(link, target("v2"))).then(String));
    flip(link, target("v1")); // rolled back
    await sleep(40);
    const { inProcess, newProcess, fresh } = await checks(root);
    expect({ inProcess, newProcess }).toEqual({ inProcess: fresh, newProcess: fresh });
  },
);

test("a file edited in place with its mtime put back while a check reads: the next checks hash the edit", async () => {
  setRacyWindowMs(30);
  const root = await tree({ "index.js": "i\n", "config.js": "exports.port = 8080;\n" });
  await sleep(40);
  await hashAnew(root); // the index knows config.js as it was
  await refused(root);
  const path = join(root, "config.js");
  // As rsync -t or cp -p write: the same size, the old mtime; only the ctime moves.
  const edit = () => {
    const was = statSync(path);
    writeFileSync(path, "exports.port = 9090;\n");
    utimesSync(path, was.atime, was.mtime);
  };
  await hashSourceFiles(root, manifest, edit);
  await sleep(40);
  const { inProcess, newProcess, fresh } = await checks(root);
  expect({ inProcess, newProcess }).toEqual({ inProcess: fresh, newProcess: fresh });
});

test("a link to a named pipe in an ignored folder, the pipe replaced by a file: the file is hashed", async () => {
  setRacyWindowMs(30);
  const root = await tree({ "index.js": "i\n", ".hostingignore": "tmp/\n", "tmp/": "" });
  execFileSync("mkfifo", [join(root, "tmp/out")]);
  await symlink("tmp/out", join(root, "latest")); // a pipe is not a file of the app: left out
  await sleep(40);
  await hashSource(root, manifest);
  await rm(join(root, "tmp/out"));
  await writeFile(join(root, "tmp/out"), "the build's output\n");
  await sleep(40);
  const { inProcess, newProcess, fresh } = await checks(root);
  expect(fresh).toMatch(/^[0-9a-f]{64}$/); // a hash, not a refusal
  expect({ inProcess, newProcess }).toEqual({ inProcess: fresh, newProcess: fresh });
});

test("a link made to lead out of the source, to the same file by another name: refused as fresh", async () => {
  setRacyWindowMs(30);
  const outside = join(workDir(), "hard-linked");
  await mkdir(outside);
  const root = await tree({ "index.js": "i\n", "data.txt": "data\n", ".hostingignore": "tmp/\n" });
  await link(join(root, "data.txt"), join(outside, "data.txt")); // one file, two names
  await mkdir(join(root, "tmp"));
  await symlink("../data.txt", join(root, "tmp/data"));
  await symlink("tmp/data", join(root, "latest"));
  await sleep(40);
  await hashSource(root, manifest);
  flip(join(root, "tmp/data"), join(outside, "data.txt")); // in the ignored folder
  const { inProcess, newProcess, fresh } = await checks(root);
  expect(fresh).toMatch(/^refused: source\/latest is a symlink to .* outside the source root/);
  expect({ inProcess, newProcess }).toEqual({ inProcess: fresh, newProcess: fresh });
});

test("a source holding its own hosting.json: checks answered by the kept walk leave the index whole", async () => {
  setRacyWindowMs(30);
  const root = await tree({
    "index.js": "i\n",
    "lib/a.js": "a\n",
    "lib/b.js": "b\n",
    "hosting.json": JSON.stringify(manifest),
  });
  await sleep(40);
  await hashAnew(root); // every file read and written to the index
  for (let i = 0; i < 3; i++) await hashSource(root, manifest); // answered by the kept walk
  const reads = indexCounts.reads;
  const newProcess = await hashAnew(root);
  expect(indexCounts.reads - reads).toBe(0); // the index answered for every file
  expect(newProcess).toBe(await hashWithoutIndex(root));
});

test("two checks of one folder at once (two Apps): the index they leave answers for every file", async () => {
  setRacyWindowMs(30);
  const files: Record<string, string> = {};
  for (let i = 0; i < 20; i++) files[`lib/${String(i).padStart(2, "0")}.js`] = `${i}\n`;
  const root = await tree(files);
  await sleep(40);
  await hashAnew(root); // the index holds every file
  // The first App's check walks; the second's starts once that walk is kept, before it is read.
  const walked = walkCounts.walked;
  const first = hashAnew(root);
  while (walkCounts.walked === walked) await new Promise((r) => setImmediate(r));
  const second = hashSource(root, manifest);
  const both = await Promise.all([first, second]);
  const reads = indexCounts.reads;
  const newProcess = await hashAnew(root);
  expect(indexCounts.reads - reads).toBe(0); // the index answered for every file
  const fresh = await hashWithoutIndex(root);
  expect([...both, newProcess]).toEqual([fresh, fresh, fresh]);
});
