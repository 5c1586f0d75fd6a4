import type { HostingClient } from "../api";
import { once } from "../base";
import { PATIENT_RETRY_POLICY, type RetryEvent } from "../api/wire";
import type { Resolved } from "./resolve";
import type { WireSettings } from "./wire-limits";

/**
 * The client (undici and the reply schemas) loads with the first client made: a preview of
 * unchanged resources sends no request, and its provider host never needs it.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const api = once(() => require("../api") as typeof import("../api"));

/**
 * @internal Loads the client now. For tests that load a provider host in a module registry of
 * its own (jest's isolateModules): a load after that registry closed would take another copy of
 * the client, with its own limiters and clock.
 */
export const loadClientModule = (): void => void api();

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
      client = new (api().HostingClient)({
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
