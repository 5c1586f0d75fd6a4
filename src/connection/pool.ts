import { HostingClient } from "../api";
import type { RetryEvent } from "../api/wire";
import type { Resolved } from "./resolve";
import type { WireSettings } from "./wire-limits";

/**
 * Retries of a transient failure (a 5xx, a reset) of a call that is safe to repeat: with the
 * backoff (0.5 s doubling to 8 s) about 15 s, so one `pulumi up` rides out a flaky moment
 * instead of failing on the third 503 in a row (the client's default is 2).
 */
export const TRANSIENT_RETRIES = 5;

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
        maxRetries: TRANSIENT_RETRIES,
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
