import { closest, distance } from "fastest-levenshtein";

/*
 * Every `hosting:*` stack-config key, with the environment variable that stands in for it. A key
 * not in this table is a mistake (most often a misspelling) and is reported with the nearest one.
 */

export const SETTINGS = {
  "hosting:apiUrl": { env: "HOSTING_API_URL" },
  "hosting:token": { env: "HOSTING_TOKEN" },
  "hosting:accounts": { env: undefined },
  "hosting:timeoutSeconds": { env: "HOSTING_TIMEOUT_SECONDS" },
  "hosting:maxResponseMiB": { env: "HOSTING_MAX_RESPONSE_MIB" },
  "hosting:allowInsecureHttp": { env: "HOSTING_ALLOW_INSECURE_HTTP" },
} as const;

export type SettingKey = keyof typeof SETTINGS;

/** The settings of one entry of `hosting:accounts`. */
export const ACCOUNT_SETTINGS = ["apiUrl", "token"] as const;

/**
 * The known name nearest to `name` (case ignored), when it is near enough to be a misspelling of
 * it; a key that is only differently cased is always near.
 */
export function nearest(name: string, known: readonly string[]): string | undefined {
  const lower = name.toLowerCase();
  const byLower = new Map(known.map((k) => [k.toLowerCase(), k]));
  const best = closest(lower, [...byLower.keys()]);
  const limit = Math.max(2, Math.floor(lower.length / 4));
  return distance(lower, best) <= limit ? byLower.get(best) : undefined;
}

/**
 * `hosting:*` keys of the stack config this package does not know but that are near one it does
 * (a misspelling), each with the key it is near. Keys near none are left alone: a program may keep
 * settings of its own there (a project named after the package shares its namespace).
 */
export function unknownSettings(keys: readonly string[]): string[] {
  const known = Object.keys(SETTINGS);
  return keys.flatMap((k) => {
    if (!k.startsWith("hosting:") || Object.hasOwn(SETTINGS, k)) return [];
    const near = nearest(k, known);
    return near ? [misspeltKey(k, near)] : [];
  });
}

/** What is said of `key`, a misspelling of the setting `near`: the one sentence, with the fix. */
export function misspeltKey(key: string, near: string): string {
  return `${safeKeyName(key)} is not a pulumi-hosting setting: did you mean ${near}? (rename it with \`pulumi config rm\` and \`pulumi config set\`)`;
}

/** A config key as it may be shown: keys are names, but one could be a pasted token. */
export function safeKeyName(key: string): string {
  return /^[A-Za-z0-9:._-]{1,80}$/.test(key) && !/[A-Za-z0-9_-]{32,}/.test(key)
    ? key
    : "a hosting:* key (not shown)";
}
