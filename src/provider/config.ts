import { HostingClient } from "../api/client";
import { HostingConfigError } from "../api/errors/config-error";
import { resolveAccount } from "./accounts";

/** Where handlers and data sources find `hosting:*` stack config (objects as JSON text). */
export type ConfigSource = (
  key: "hosting:apiUrl" | "hosting:token" | "hosting:accounts",
) => string | undefined;

export interface Connection {
  apiUrl: string;
  token: string;
}

const HOW = {
  "hosting:apiUrl":
    "set it with `pulumi config set hosting:apiUrl <url>` or the HOSTING_API_URL environment variable",
  "hosting:token":
    "set it with `pulumi config set --secret hosting:token <token>` or the HOSTING_TOKEN environment variable",
} as const;

const defaultApiUrl = (config: ConfigSource | undefined) =>
  config?.("hosting:apiUrl") || process.env.HOSTING_API_URL || undefined;

/**
 * Stack config first, then the environment; a missing value names both ways to set it. With an
 * account name, that account's connection (see accounts.ts); without, `hosting:apiUrl`/`token`.
 */
export function resolveConnection(config: ConfigSource | undefined, account?: string): Connection {
  if (account !== undefined) return resolveAccount(config, account, () => defaultApiUrl(config));
  const apiUrl = defaultApiUrl(config);
  const token = config?.("hosting:token") || process.env.HOSTING_TOKEN;
  if (!apiUrl) throw new HostingConfigError(`hosting:apiUrl is not set: ${HOW["hosting:apiUrl"]}.`);
  if (!token) throw new HostingConfigError(`hosting:token is not set: ${HOW["hosting:token"]}.`);
  return { apiUrl, token };
}

const clients = new Map<string, HostingClient>();

/** One client per API URL and token in this process, so keep-alive and the limiter are shared. */
export function clientFor(conn: Connection): HostingClient {
  const key = `${conn.apiUrl}\u0000${conn.token}`;
  let client = clients.get(key);
  if (!client) {
    client = new HostingClient({ apiUrl: conn.apiUrl, token: conn.token });
    clients.set(key, client);
  }
  return client;
}

/** Closes every cached client (tests and short-lived programs). */
export async function closeClients(): Promise<void> {
  const all = [...clients.values()];
  clients.clear();
  await Promise.all(all.map((c) => c.close()));
}
