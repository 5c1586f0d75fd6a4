import { lstat, mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

/*
 * Where a packed archive waits for its upload: a folder `pulumi-hosting-<pid>-…` in the system's
 * temp folder, removed when the create is done with it. A provider host killed in the middle of a
 * create (a CI job's time limit, kill -9) leaves its folder behind, as large as the source. The
 * first pack of every later provider process removes those of this user whose process is gone and
 * that are a day old: a process of another container sharing the temp folder looks gone from
 * here, but no create takes a day.
 */

const STALE_MS = 24 * 3600_000;
const NAME = /^pulumi-hosting-(\d+)-[A-Za-z0-9]{6}$/;

let swept = false;

/** A new folder for one packed archive; the first call also sweeps stale ones (not awaited). */
export function archiveFolder(): Promise<string> {
  if (!swept) {
    swept = true;
    void sweepStaleArchives().catch(() => undefined);
  }
  return mkdtemp(join(tmpdir(), `pulumi-hosting-${process.pid}-`));
}

/** Removes the archive folders left by processes that are gone (see above); best effort. */
export async function sweepStaleArchives(now = Date.now()): Promise<void> {
  const root = tmpdir();
  for (const name of await readdir(root)) {
    const pid = Number(NAME.exec(name)?.[1]);
    if (!pid || pid === process.pid || running(pid)) continue;
    const path = join(root, name);
    const st = await lstat(path).catch(() => undefined);
    // Not a link (it would lead elsewhere), not another user's, not made within the last day.
    if (!st?.isDirectory() || st.uid !== process.getuid?.() || now - st.mtimeMs < STALE_MS) {
      continue;
    }
    await rm(path, { recursive: true, force: true }).catch(() => undefined);
  }
}

/** Whether process `pid` runs (one of another user counts as running). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}
