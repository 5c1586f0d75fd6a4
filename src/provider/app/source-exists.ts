import { existsSync, readdirSync } from "node:fs";
import { homedir } from "node:os";
import { basename, dirname, isAbsolute, join, resolve } from "node:path";
import { HostingInputError } from "../../api/wire";
import { underMocks } from "../../shared";
import { ProgramInputError, programInputError } from "../program-error";
import { nearestName } from "./nearest-name";

/*
 * A source path that does not exist, refused where the program builds the App: the program stops
 * with one message (naming the nearest entry), instead of the provider's check failing the App
 * and Pulumi then reporting the same failure again on every resource that uses `app.id`. The
 * provider's check still judges what the source holds, and says the same of a missing path.
 */

const tilde = (source: string) => source === "~" || source.startsWith("~/");

/** Why a source path names nothing, with what the path was taken to mean. */
export function missingSource(source: string, root: string): HostingInputError {
  let why = `source ${JSON.stringify(source)} does not exist`;
  if (tilde(source)) {
    why +=
      ": `~` is not expanded (no shell reads this path); write the full path, e.g. " +
      'path.join(os.homedir(), "app")';
    if (!isAbsolute(source)) why += ` (${JSON.stringify(resolve(homedir(), source.slice(2)))})`;
  } else if (!isAbsolute(source)) {
    why +=
      ` (a relative path is taken from the working directory ${JSON.stringify(process.cwd())}, ` +
      `giving ${JSON.stringify(root)}); use path.join(__dirname, ...) in the program`;
  }
  return new HostingInputError("source", why);
}

/**
 * Throws when `source`, a plain path, names nothing; under mocks a unit test needs no files. The
 * error is one Pulumi prints as its message alone (see program-error.ts).
 */
export function refuseMissingSource(source: unknown): void {
  if (typeof source !== "string" || source === "" || underMocks()) return;
  const full = resolve(source);
  if (existsSync(full)) return;
  const near = tilde(source) ? undefined : nearestEntry(full);
  if (!near) throw programInputError(missingSource(source, full));
  throw new ProgramInputError(
    "source",
    `source "${source}" does not exist: did you mean "${near}"?`,
  );
}

/** The sibling whose name is nearest the missing one's, as a path written like the given one. */
function nearestEntry(full: string): string | undefined {
  let names: string[];
  try {
    names = readdirSync(dirname(full)).filter((n) => n !== "node_modules" && !n.startsWith("."));
  } catch {
    return undefined;
  }
  const best = nearestName(basename(full), names);
  return best === undefined ? undefined : join(dirname(full), best);
}
