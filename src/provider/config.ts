import { HostingClient } from "../api/client";
import { HostingConfigError } from "../api/errors/config-error";

/** Where handlers and data sources find `hosting:apiUrl` and `hosting:token`. */
export type ConfigSource = (key: "hosting:apiUrl" | "hosting:token") => string | undefined;

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

/** Stack config first, then the environment; a missing value names both ways to set it. */
export function resolveConnection(config: ConfigSource | undefined): Connection {
  const apiUrl = config?.("hosting:apiUrl") || process.env.HOSTING_API_URL;
  const token = config?.("hosting:token") || process.env.HOSTING_TOKEN;
  if (!apiUrl) throw new HostingConfigError(`hosting:apiUrl is not set: ${HOW["hosting:apiUrl"]}.`);
  if (!token) throw new HostingConfigError(`hosting:token is not set: ${HOW["hosting:token"]}.`);
  return { apiUrl, token };
}

const clients = new Map<string, HostingClient>();

/** One client per API URL and token in this process, so keep-alive and the limiter are shared. */
let last: { apiUrl: string; token: string; client: HostingClient } | undefined;

export function clientFor(conn: Connection): HostingClient {
  // Every read of a refresh asks again: the same connection as last time skips the key building.
  if (last && last.apiUrl === conn.apiUrl && last.token === conn.token) return last.client;
  const key = `${conn.apiUrl}\u0000${conn.token}`;
  let client = clients.get(key);
  if (!client) {
    client = new HostingClient({ apiUrl: conn.apiUrl, token: conn.token });
    clients.set(key, client);
  }
  last = { apiUrl: conn.apiUrl, token: conn.token, client };
  return client;
}

/** Closes every cached client (tests and short-lived programs). */
export async function closeClients(): Promise<void> {
  const all = [...clients.values()];
  clients.clear();
  last = undefined;
  await Promise.all(all.map((c) => c.close()));
}
