import { HostingConfigError } from "../api/errors/config-error";
import type { ConfigSource } from "./config";

/*
 * Named accounts: `account: "shared"` on a resource or data source picks the connection in
 * `hosting:accounts.shared.{apiUrl,token}` (stack config) or `HOSTING_SHARED_{API_URL,TOKEN}`
 * (environment). Only the name is an input, so only the name is ever in state.
 */

export const ACCOUNT_NAME = /^[A-Za-z][A-Za-z0-9_-]{0,62}$/;

export const ACCOUNT_NAME_RULE =
  "account must be 1-63 letters, digits, '-' or '_', starting with a letter (e.g. \"shared\"): " +
  "the name of a connection in hosting:accounts";

/** `HOSTING_<NAME>_`: the name upper-cased with '-' as '_'. */
function accountEnvPrefix(name: string): string {
  return `HOSTING_${name.toUpperCase().replace(/-/g, "_")}_`;
}

type AccountEntry = { apiUrl?: unknown; token?: unknown };

/** `hosting:accounts`: the engine hands structured config over as JSON text. */
function accountsIn(config: ConfigSource | undefined): Record<string, AccountEntry> {
  const raw = config?.("hosting:accounts");
  if (raw === undefined) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    parsed = undefined;
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) {
    throw new HostingConfigError(
      "hosting:accounts must be an object of named accounts; set entries with " +
        "`pulumi config set --path hosting:accounts.<name>.apiUrl <url>` and " +
        "`pulumi config set --secret --path hosting:accounts.<name>.token <token>`.",
    );
  }
  return parsed as Record<string, AccountEntry>;
}

const text = (v: unknown) => (typeof v === "string" && v.length > 0 ? v : undefined);

/**
 * The connection of a named account: its own apiUrl (config, then env), else the default
 * `hosting:apiUrl`; its own token (config, then env) and never the default token.
 */
export function resolveAccount(
  config: ConfigSource | undefined,
  name: string,
  defaultApiUrl: () => string | undefined,
): { apiUrl: string; token: string } {
  if (!ACCOUNT_NAME.test(name))
    throw new HostingConfigError(`${ACCOUNT_NAME_RULE}; got ${JSON.stringify(name)}.`);
  const all = accountsIn(config);
  const entry = Object.hasOwn(all, name) ? all[name] : {};
  const env = accountEnvPrefix(name);
  const token = text(entry.token) ?? text(process.env[`${env}TOKEN`]);
  const apiUrl = text(entry.apiUrl) ?? text(process.env[`${env}API_URL`]) ?? defaultApiUrl();
  if (!token) {
    const known = Object.keys(all).sort().join(", ");
    throw new HostingConfigError(
      `account "${name}" has no token: set it with ` +
        `\`pulumi config set --secret --path hosting:accounts.${name}.token <token>\` or the ` +
        `${env}TOKEN environment variable` +
        (known ? ` (accounts in hosting:accounts: ${known})` : "") +
        ".",
    );
  }
  if (!apiUrl) {
    throw new HostingConfigError(
      `account "${name}" has no API URL: set it with ` +
        `\`pulumi config set --path hosting:accounts.${name}.apiUrl <url>\`, the ${env}API_URL ` +
        "environment variable, or the default hosting:apiUrl.",
    );
  }
  return { apiUrl, token };
}
