/*
 * Which setting a refusal (400, 409 or 422) is about, guessed from the service's error text. The
 * spec documents no error texts; these patterns match the emulator's ("runtime node 0.10 is not
 * available", "hosting.json: ram: Expected number", "subdomain … is already taken"). The client
 * puts the guess on its error as `property`, so it lives here; the provider maps that to its own
 * input (provider/app/refusal.ts).
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

/** The manifest setting a refusal quotes first (`runtime` of `hosting.json: runtime.version`). */
export function quotedSetting(bodyMessage: string): string | undefined {
  return MANIFEST_PATH.exec(bodyMessage)?.[1].toLowerCase();
}

/** Whether a status is a refusal, whose words may name a setting. */
export const isRefusalStatus = (status: number): boolean =>
  status === 400 || status === 409 || status === 422;

/** The property a refusal names, and the client's advice for it; undefined when none. */
export function refusalOf(
  bodyMessage: string,
): { property: RefusedProperty; hint?: string } | undefined {
  const quoted = quotedSetting(bodyMessage);
  const hit =
    REFUSALS.find((r) => r.property === quoted) ?? REFUSALS.find((r) => r.words.test(bodyMessage));
  return hit && { property: hit.property, hint: hit.hint };
}
