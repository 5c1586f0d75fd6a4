import { realpathSync, statSync, type Stats } from "node:fs";
import { sourceIndexOff } from "../../connection";
import { racyWindowMs, sameStamp, type FileStamp } from "./source-index";
import type { Ignore, SourceFile } from "./source-rules";

/*
 * The walk of a folder source, kept for the process while stat data says nothing it saw changed.
 * A program of many Apps sharing one folder has each App's check walk it; with this, the first
 * check walks and the others stat what it saw. What is kept and how it is trusted is the hash
 * index's rule (source-index.ts), applied to folders too:
 *   - every folder the walk listed (by the path it was reached through, so a link retargeted
 *     shows) with its stat data: an entry added, removed or renamed changes its folder's mtime;
 *   - every file with its stat data (an edit, a chmod, a replace by rename), and .hostingignore's;
 *   - nothing stamped within the index's racy window of the walk is kept (a second write in the
 *     same timestamp tick would not show), so a folder just written is walked again each time.
 * A walk that failed is never kept. HOSTING_SOURCE_INDEX=off turns it off with the index.
 */

/** What one walk saw: where it looked, what it found. */
export interface Walked {
  files: SourceFile[];
  ignore: Ignore;
  /**
   * Every path whose stat data vouches for the walk: folders, files, what was left out as neither
   * (a pipe), .hostingignore; for a link, where it led (its real path).
   */
  seen: Array<{ abs: string; stamp: FileStamp; real?: string }>;
  /** When the walk began (ms since the epoch), for the racy window. */
  began: number;
}

/** Roots kept at once: a program has a handful of source folders, a test suite many. */
const MAX_ROOTS = 32;
/** Paths stat'ed between two turns of the event loop. */
const STAT_BATCH = 256;

const kept = new Map<string, Walked>();

/** @internal Folders walked, and walks answered by a kept one, since the process started. */
export const walkCounts = { walked: 0, kept: 0 };

export const stampOf = ({ dev, ino, size, mtimeMs, ctimeMs }: Stats): FileStamp => ({
  dev,
  ino,
  size,
  mtimeMs,
  ctimeMs,
});

/** @internal For tests: a new process's memory, where no walk (and no digest with it) is kept. */
export function forgetWalks(): void {
  kept.clear();
}

/** The kept walk of `root` if stat data shows nothing it saw changed; else undefined. */
export async function keptWalk(root: string): Promise<Walked | undefined> {
  const w = kept.get(root);
  if (!w || sourceIndexOff()) return undefined;
  for (let i = 0; i < w.seen.length; i += STAT_BATCH) {
    if (i > 0) await new Promise((r) => setImmediate(r)); // a turn for the rest of the process
    for (const { abs, stamp, real } of w.seen.slice(i, i + STAT_BATCH)) {
      let now: Stats;
      let led: string | undefined;
      try {
        now = statSync(abs); // follows links, as the walk did to stamp their targets
        // The same file may be reached by another name, outside the root (a hard link).
        if (real !== undefined) led = realpathSync.native(abs);
      } catch {
        kept.delete(root);
        return undefined;
      }
      if (!sameStamp(stampOf(now), stamp) || led !== real) {
        kept.delete(root);
        return undefined;
      }
    }
  }
  walkCounts.kept++;
  return w;
}

/**
 * Keeps a walk that succeeded, unless anything it saw was stamped within the racy window (or
 * later). Kept even while the index is off: keptWalk does not answer then, and a walk it answers
 * with later is one whose every stamp it checked.
 */
export function keepWalk(root: string, w: Walked): void {
  walkCounts.walked++;
  const since = w.began - racyWindowMs();
  if (w.seen.some((s) => Math.max(s.stamp.mtimeMs, s.stamp.ctimeMs) >= since)) return;
  kept.delete(root); // re-inserted last: the oldest root is the first to go
  kept.set(root, w);
  if (kept.size > MAX_ROOTS) kept.delete(kept.keys().next().value as string);
}
