import { posix } from "node:path";
import ignore from "ignore";
import { HostingInputError, wireAssumptions } from "../../api/wire";
import { nearestName } from "./nearest-name";
import type { SourceListing } from "./source-files";
import { IGNORE_FILE, ignoreRules } from "./source-rules";

/*
 * An entrypoint the source does not upload: the service would take the app and fail to start it.
 * Judged at check from the listing the hash is made from (no second walk, nothing read), so
 * preview says it, naming the nearest file that is uploaded.
 */

/** Left out of every source, whatever .hostingignore says. */
const always = ignoreRules(undefined);

/**
 * Throws when `entrypoint` (a path relative to the source's root; `./` and `/` separators as
 * written) is not a file of `listing`.
 */
export function refuseMissingEntrypoint(
  entrypoint: string | undefined,
  source: string,
  listing: SourceListing,
): void {
  if (entrypoint === undefined) return;
  const want = posix.normalize(entrypoint);
  const manifest = wireAssumptions.manifestFileName;
  if (want !== manifest && listing.files.some((f) => f.name === want)) return;
  const refuse = (why: string): never => {
    throw new HostingInputError("entrypoint", `entrypoint ${JSON.stringify(entrypoint)} ${why}`);
  };
  // A path the rules can match: relative, inside the root (`ignore` throws on any other).
  if (ignore.isPathValid(want)) {
    if (always.ignores(want)) {
      refuse(
        "is never uploaded (node_modules and .git are left out of every source); " +
          "point entrypoint at a file of the app",
      );
    }
    if (listing.ignore.ignores(want)) {
      refuse(
        `is left out of the upload by ${IGNORE_FILE}; remove the pattern that matches it, ` +
          "or point entrypoint at a file that is uploaded",
      );
    }
  }
  const names = listing.files.map((f) => f.name).filter((n) => n !== manifest);
  // The file of that name in another folder (a folder left out, or the wrong one) first.
  const near =
    names.find((n) => posix.basename(n) === posix.basename(want)) ?? nearestName(want, names);
  const where = `is not a file of source ${JSON.stringify(source)}`;
  if (near !== undefined) refuse(`${where}: did you mean ${JSON.stringify(near)}?`);
  refuse(
    `${where}; give the file the runtime starts, relative to the source's root, or omit ` +
      "entrypoint for the runtime's default",
  );
}
