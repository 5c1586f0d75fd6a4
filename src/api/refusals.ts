/*
 * Which setting a refusal (400, 409 or 422) is about, from the service's words. The spec shows no
 * error texts, so this reads them the way the emulator (our model of the service) words them:
 * "runtime node 0.10 is not available", "hosting.json: ram: Expected number", "subdomain … is
 * already taken". The one table of such words: the client names the property on the error, and
 * the provider maps that property to its own input (see provider/app/refusal.ts).
 */

/** A setting of a request, by its wire name (the manifest's and the API's snake_case). */
export type RefusedProperty =
  | "runtime"
  | "name"
  | "ram"
  | "vcpu"
  | "entrypoint"
  | "subdomain"
  | "description"
  | "custom_command"
  | "env"
  | "archive"
  | "domain";

/** What the service's words say, first match wins; the client's own advice for each. */
const REFUSALS: ReadonlyArray<{ words: RegExp; property: RefusedProperty; hint?: string }> = [
  {
    words: /\b(runtime|language|version)\b/i,
    property: "runtime",
    hint: "listRuntimeVersions() lists the runtimes the service offers",
  },
  { words: /\bcustom[_ ]command\b|\bstart command\b/i, property: "custom_command" },
  { words: /\bentry ?point\b/i, property: "entrypoint" },
  { words: /\bsub-?domain\b/i, property: "subdomain" },
  { words: /\b(ram|memory)\b/i, property: "ram" },
  { words: /\bv?cpus?\b/i, property: "vcpu" },
  { words: /\bdescription\b/i, property: "description" },
  { words: /\benvironment variables?\b|\bdotenv\b|\benv (var|key)/i, property: "env" },
  { words: /\b(domain|hostname)\b/i, property: "domain" },
  { words: /\b(archive|zip|upload)\b/i, property: "archive" },
  { words: /\b(app )?name\b/i, property: "name" },
];

/** A manifest path the service quotes, e.g. `hosting.json: runtime.version: …`. */
const MANIFEST_PATH = /^hosting\.json: ([a-z_]+)\b/i;

/** The property a refusal names, and the client's advice for it; undefined when none. */
export function refusalOf(
  bodyMessage: string,
): { property: RefusedProperty; hint?: string } | undefined {
  const quoted = MANIFEST_PATH.exec(bodyMessage)?.[1].toLowerCase();
  const hit =
    REFUSALS.find((r) => r.property === quoted) ?? REFUSALS.find((r) => r.words.test(bodyMessage));
  return hit && { property: hit.property, hint: hit.hint };
}
