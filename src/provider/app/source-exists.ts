import { existsSync, readdirSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { closest, distance } from "fastest-levenshtein";
import { HostingInputError } from "../../api/errors";
import { underMocks } from "../../shared/under-mocks";

/*
 * A source path that does not exist, refused where the program builds the App: the program stops
 * with one message (naming the nearest entry), instead of the provider's check failing the App
 * and Pulumi then reporting the same failure again on every resource that uses `app.id`. The
 * provider's check still judges what the source holds.
 */

/** Throws when `source`, a plain path, names nothing; under mocks a unit test needs no files. */
export function refuseMissingSource(source: unknown): void {
  if (typeof source !== "string" || source === "" || underMocks()) return;
  const full = resolve(source);
  if (existsSync(full)) return;
  const near = nearestEntry(full);
  const hint = near ? `: did you mean "${near}"?` : ": give the path of the app's folder or .zip";
  throw new HostingInputError("source", `source "${source}" does not exist${hint}`);
}

/** The sibling whose name is nearest the missing one's, as a path written like the given one. */
function nearestEntry(full: string): string | undefined {
  let names: string[];
  try {
    names = readdirSync(dirname(full)).filter((n) => n !== "node_modules" && !n.startsWith("."));
  } catch {
    return undefined;
  }
  const want = basename(full);
  if (names.length === 0) return undefined;
  const best = closest(want, names);
  const limit = Math.max(2, Math.floor(want.length / 3));
  return distance(want, best) <= limit ? join(dirname(full), best) : undefined;
}
