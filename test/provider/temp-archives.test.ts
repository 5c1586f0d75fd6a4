import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm, symlink, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { packageSource } from "../../src/provider/app/packaging";
import { sweepStaleArchives } from "../../src/provider/app/temp-archives";
import { appSource } from "../helpers/provider-env";

/*
 * A provider host killed in the middle of a create leaves its packed archive in the temp folder.
 * Later provider processes remove such folders: only this user's, only of processes that are
 * gone, only a day old, never through a link.
 */

/** The pid of a process that has just ended. */
function goneForGood(): number {
  const child = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"]);
  return Number(child.stdout.toString());
}

const DAY_MS = 24 * 3600_000;
const made: string[] = [];

/** A folder as a packing process `pid` leaves it, `ageMs` old. */
async function leftBy(pid: number, tail: string, ageMs: number): Promise<string> {
  const dir = join(tmpdir(), `pulumi-hosting-${pid}-${tail}`);
  await mkdir(dir);
  await writeFile(join(dir, "source.zip"), "zip bytes");
  const at = new Date(Date.now() - ageMs);
  await utimes(dir, at, at);
  made.push(dir);
  return dir;
}

afterAll(() => Promise.all(made.map((d) => rm(d, { recursive: true, force: true }))));

test("removes what processes that are gone left a day ago; keeps the rest", async () => {
  const gone = goneForGood();
  const stale = await leftBy(gone, "Stale1", DAY_MS + 60_000);
  const recent = await leftBy(gone, "Recnt1", DAY_MS - 60_000);
  const ours = await leftBy(process.pid, "Ours01", 2 * DAY_MS);
  const running = await leftBy(process.ppid, "Runs01", 2 * DAY_MS);
  // A link under an archive folder's name, to a folder that is not one: neither is touched.
  const elsewhere = await mkdtemp(join(tmpdir(), "not-an-archive-"));
  made.push(elsewhere);
  await writeFile(join(elsewhere, "keep.txt"), "keep");
  const link = join(tmpdir(), `pulumi-hosting-${gone}-Link01`);
  await symlink(elsewhere, link, "dir");
  made.push(link);

  await sweepStaleArchives();

  expect(existsSync(stale)).toBe(false);
  expect(existsSync(recent)).toBe(true);
  expect(existsSync(ours)).toBe(true);
  expect(existsSync(running)).toBe(true);
  expect(existsSync(link)).toBe(true);
  expect(existsSync(join(elsewhere, "keep.txt"))).toBe(true);
});

test("the first pack of a process clears what a killed host left, and names its own folder for the next", async () => {
  const stale = await leftBy(goneForGood(), "Stale2", DAY_MS + 60_000);
  const p = await packageSource(await appSource(), { name: "named" });
  made.push(dirname(p.zipPath));
  expect(basename(dirname(p.zipPath))).toMatch(new RegExp(`^pulumi-hosting-${process.pid}-`));
  expect(existsSync(p.zipPath)).toBe(true);
  // The sweep runs beside the create, not before it: give it a few seconds at most.
  const until = Date.now() + 5000;
  while (existsSync(stale) && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
  expect(existsSync(stale)).toBe(false);
});
