import { HostingClient } from "../api";
import { PATIENT_RETRY_POLICY, type RetryEvent } from "../api/wire";
import type { Resolved } from "./resolve";
import type { WireSettings } from "./wire-limits";

/**
 * One client per URL, token and limits, so keep-alive and the limiter are shared by everything
 * that talks with the same credentials in this process (every resource type, every data source).
 */
export class ClientPool {
  readonly #clients = new Map<string, HostingClient>();

  constructor(private readonly onRetry?: (event: RetryEvent) => void) {}

  get(conn: Resolved, wire: WireSettings): HostingClient {
    const key = JSON.stringify([conn.apiUrl, conn.token, wire]);
    let client = this.#clients.get(key);
    if (!client) {
      client = new HostingClient({
        ...conn,
        ...wire,
        retryPolicy: PATIENT_RETRY_POLICY,
        onRetry: this.onRetry,
      });
      this.#clients.set(key, client);
    }
    return client;
  }

  /** Closes every client (tests and short-lived programs). */
  async close(): Promise<void> {
    const all = [...this.#clients.values()];
    this.#clients.clear();
    await Promise.all(all.map((c) => c.close()));
  }
}
