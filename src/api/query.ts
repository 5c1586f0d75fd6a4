import { HostingInputError } from "./errors";
import { assertEncodable } from "./path";

/**
 * The query string of a request. Values are checked before any request: numbers must be safe
 * integers (so `1e21` is never sent as `1e+21`), strings must be well-formed Unicode (a lone
 * surrogate would otherwise be sent as U+FFFD, silently asking for something else).
 */
export function searchOf(query: Readonly<Record<string, string | number | undefined>> = {}) {
  const search = new URLSearchParams();
  for (const [name, v] of Object.entries(query)) {
    if (v === undefined) continue;
    if (typeof v === "number" && !Number.isSafeInteger(v)) {
      throw new HostingInputError(name, `${name} must be a whole number (got ${v})`);
    }
    if (typeof v === "string") assertEncodable(name, v);
    search.set(name, String(v));
  }
  return search;
}
