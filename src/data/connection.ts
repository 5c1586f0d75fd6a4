import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import type { HostingClient } from "../api/client";
import { HostingConfigError } from "../api/errors";
import { ACCOUNT_NAME, ACCOUNT_NAME_RULE } from "../connection/accounts";
import { Connection } from "../connection/connection";
import { readEnvironment } from "../connection/environment";
import { ClientPool } from "../connection/pool";
import { stackConfig } from "../connection/stack-config";
import { reportRetryWait } from "../shared/progress";

/** The program's clients, shared by every data source call (keep-alive, limiter). */
const pool = new ClientPool(reportRetryWait);

/**
 * The client for data sources in a program: stack config `hosting:*`, then the environment; with
 * an account name, that named account's connection. A mistake anywhere in the stack's
 * `hosting:*` config fails the call, as it fails the check of every resource.
 */
export function programClient(account?: string): HostingClient {
  if (clientsOf) return clientsOf(account);
  const config = stackConfig(pulumi.runtime.allConfig(), pulumi.getProject());
  const conn = new Connection(config, readEnvironment(), pool);
  if (conn.problems.length > 0) throw new HostingConfigError(conn.problems.join("\n"));
  return conn.client(account);
}

let clientsOf: ((account?: string) => HostingClient) | undefined;

/**
 * @internal Data sources answer the native plugin's invokes with its provider's clients (its
 * own config), not with the program's config.
 */
export function useClientsOf(clients: (account?: string) => HostingClient): void {
  clientsOf = clients;
}

/** Closes the program's clients (tests and short-lived programs). */
export function closeProgramClients(): Promise<void> {
  return pool.close();
}

/** The optional `account` argument of every data source, checked before any request. */
export const accountArg = {
  account: z.string({ error: ACCOUNT_NAME_RULE }).regex(ACCOUNT_NAME, ACCOUNT_NAME_RULE).optional(),
};
