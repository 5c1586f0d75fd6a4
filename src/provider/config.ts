import { HostingClient } from "../api/client";
import { HOW_TO_SET as HOW } from "../api/credentials";
import { HostingConfigError } from "../api/errors/config-error";
import { resolveAccount } from "./accounts";
import { reportRetryWait } from "./progress";
import { wireLimits, type WireLimitKey, type WireLimits } from "./wire-limits";

/**
 * Where handlers and data sources find `hosting:apiUrl`, `hosting:token`, the wire limits and
 * the named accounts (structured values as JSON text).
 */
export type ConfigSource = (
  key: "hosting:apiUrl" | "hosting:token" | "hosting:accounts" | WireLimitKey,
) => string | undefined;

export interface Connection extends WireLimits {
  apiUrl: string;
  token: string;
}

const defaultApiUrl = (config: ConfigSource | undefined) =>
  config?.("hosting:apiUrl") || process.env.HOSTING_API_URL || undefined;

/**
 * Stack config first, then the environment; a missing value names both ways to set it. With an
 * account name, that account's URL and token (see accounts.ts); the wire limits are stack-wide.
 */
export function resolveConnection(config: ConfigSource | undefined, account?: string): Connection {
  if (account !== undefined) {
    const named = resolveAccount(config, account, () => defaultApiUrl(config));
    return { ...named, ...wireLimits(config) };
  }
  const apiUrl = defaultApiUrl(config);
  const token = config?.("hosting:token") || process.env.HOSTING_TOKEN;
  if (!apiUrl) throw new HostingConfigError(`hosting:apiUrl is not set: ${HOW["hosting:apiUrl"]}.`);
  if (!token) throw new HostingConfigError(`hosting:token is not set: ${HOW["hosting:token"]}.`);
  return { apiUrl, token, ...wireLimits(config) };
}

const clients = new Map<string, HostingClient>();

/** One client per API URL and token in this process, so keep-alive and the limiter are shared. */
export function clientFor(conn: Connection): HostingClient {
  const key = JSON.stringify(conn);
  let client = clients.get(key);
  if (!client) {
    const { apiUrl, token, ...limits } = conn;
    client = new HostingClient({ apiUrl, token, ...limits, onRetry: reportRetryWait });
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
