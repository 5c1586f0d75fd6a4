/*
 * How a Pulumi user sets each connection setting: the `hosting:*` wording lives here only (the
 * client speaks of its own options). `account` is a named account's name, or undefined for the
 * default connection; names that must not be shown arrive as undefined `shown`.
 */

export type ConnectionSetting = "apiUrl" | "token";

/** Where a setting of one connection lives: its config key and its environment variable. */
export interface SettingPlace {
  key: string;
  env: string;
}

/** The environment variable of `setting`: `HOSTING_<NAME>_…` for account `name` ('-' as '_'). */
export function envVarOf(setting: ConnectionSetting, name?: string): string {
  const suffix = setting === "apiUrl" ? "API_URL" : "TOKEN";
  return name === undefined
    ? `HOSTING_${suffix}`
    : `HOSTING_${name.toUpperCase().replace(/-/g, "_")}_${suffix}`;
}

/**
 * The config key and variable of `setting` for the default connection or a named account, as a
 * message may show them (`<name>` for a name that must not be shown).
 */
export function placeOf(
  setting: ConnectionSetting,
  account?: { name: string; shown: boolean },
): SettingPlace {
  if (!account) return { key: `hosting:${setting}`, env: envVarOf(setting) };
  return account.shown
    ? { key: `hosting:accounts.${account.name}.${setting}`, env: envVarOf(setting, account.name) }
    : { key: `hosting:accounts.<name>.${setting}`, env: envVarOf(setting, "<name>") };
}

/** "set it with `pulumi config set …` or the … environment variable". */
export function howToSet(setting: ConnectionSetting, place: SettingPlace): string {
  const path = place.key.startsWith("hosting:accounts.") ? "--path " : "";
  const cmd =
    setting === "token"
      ? `pulumi config set --secret ${path}${place.key} <token>`
      : `pulumi config set ${path}${place.key} <url>`;
  return `set it with \`${cmd}\` or the ${place.env} environment variable`;
}

/** Where the API token comes from, for messages about the token's shape. */
export const TOKEN_SOURCE =
  "copy the API token from the API-token section of the dashboard's account settings";

/** The fix for plain http to a non-loopback host. */
export const INSECURE_HTTP_FIX =
  "use an https URL; for a trusted network (e.g. an emulator on another host) allow plain http " +
  "with `pulumi config set hosting:allowInsecureHttp true` or HOSTING_ALLOW_INSECURE_HTTP=true";

/** The fix for a malformed `hosting:accounts`. */
export const ACCOUNTS_FIX =
  "set entries with `pulumi config set --path hosting:accounts.<name>.apiUrl <url>` and " +
  "`pulumi config set --secret --path hosting:accounts.<name>.token <token>`";
