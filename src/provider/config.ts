import { HostingClient } from "../api/client";
import { HOW_TO_SET as HOW } from "../api/credentials";
import { HostingConfigError } from "../api/errors/config-error";
import { wireLimits, type WireLimitKey, type WireLimits } from "./wire-limits";

/** Where handlers and data sources find `hosting:apiUrl`, `hosting:token` and the wire limits. */
export type ConfigSource = (
  key: "hosting:apiUrl" | "hosting:token" | WireLimitKey,
) => string | undefined;

export interface Connection extends WireLimits {
  apiUrl: string;
  token: string;
}

/** Stack config first, then the environment; a missing value names both ways to set it. */
export function resolveConnection(config: ConfigSource | undefined): Connection {
  const apiUrl = config?.("hosting:apiUrl") || process.env.HOSTING_API_URL;
  const token = config?.("hosting:token") || process.env.HOSTING_TOKEN;
  if (!apiUrl) throw new HostingConfigError(`hosting:apiUrl is not set: ${HOW["hosting:apiUrl"]}.`);
  if (!token) throw new HostingConfigError(`hosting:token is not set: ${HOW["hosting:token"]}.`);
  return { apiUrl, token, ...wireLimits(config) };
}

const clients = new Map<string, HostingClient>();

/** One client per API URL and token in this process, so keep-alive and the limiter are shared. */
let last: { conn: Connection; client: HostingClient } | undefined;

export function clientFor(conn: Connection): HostingClient {
  // Every read of a refresh asks again: the same connection as last time skips the key building.
  if (last && sameConnection(last.conn, conn)) return last.client;
  const key = JSON.stringify(conn);
  let client = clients.get(key);
  if (!client) {
    const { apiUrl, token, ...limits } = conn;
    client = new HostingClient({ apiUrl, token, ...limits });
    clients.set(key, client);
  }
  last = { conn, client };
  return client;
}

function sameConnection(a: Connection, b: Connection): boolean {
  const keys = Object.keys(a) as Array<keyof Connection>;
  return keys.length === Object.keys(b).length && keys.every((k) => a[k] === b[k]);
}

/** Closes every cached client (tests and short-lived programs). */
export async function closeClients(): Promise<void> {
  const all = [...clients.values()];
  clients.clear();
  last = undefined;
  await Promise.all(all.map((c) => c.close()));
}
