import ignore from "ignore";
import type { Readable } from "node:stream";
import { HostingInputError } from "../../api/wire";
import type { FileStamp } from "./source-index";

/** The ignore rules of a source: whether a relative path (`dir/` for a folder) is left out. */
export interface Ignore {
  ignores(path: string): boolean;
}

/** One file of the source, read only when asked (never all at once). */
export interface SourceFile {
  /** Relative path with `/` separators: the name hashed and the name in the archive. */
  name: string;
  /** 0o644 or 0o755. */
  mode: number;
  /** A stream of the file's bytes; errors name `source/<path>`. */
  open(): Promise<Readable>;
  /** sha256 of the bytes, hex, read in chunks; when absent, the hash of `open()`'s stream. */
  digest?(): Promise<string>;
  /** The bytes in one buffer if the file is listed at `max` bytes or fewer, else undefined. */
  whole?(max: number): Promise<Buffer | undefined>;
  /** An entry of a .zip source (the packer of the zip-bytes hash streamed these, not buffers). */
  fromZip?: true;
  /** A folder's file: its stat data, by which the hash index knows it unchanged. */
  stamp?: FileStamp;
}

export const IGNORE_FILE = ".hostingignore";

/**
 * Left out of every source: dependencies (installed by the platform) and git's data, a `.git`
 * file (a worktree's or submodule's `gitdir:` line) as well as a folder.
 */
const ALWAYS_EXCLUDED = ["node_modules/", ".git"];

/** node_modules, .git and the patterns of .hostingignore (gitignore syntax, case-sensitive). */
export function ignoreRules(hostingIgnore: string | undefined): Ignore {
  const ig = ignore({ ignorecase: false }).add(ALWAYS_EXCLUDED);
  if (hostingIgnore !== undefined) ig.add(hostingIgnore);
  return {
    ignores(path) {
      try {
        return ig.ignores(path);
      } catch (err) {
        // The library builds a pattern's regular expression when it first matches.
        throw new HostingInputError(
          "source",
          `${IGNORE_FILE} has a pattern that cannot be matched (${(err as Error).message.slice(-60)}); ` +
            "shorten or remove it",
        );
      }
    },
  };
}

export const byName = (a: { name: string }, b: { name: string }) =>
  a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
