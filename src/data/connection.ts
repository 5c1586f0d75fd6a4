import * as pulumi from "@pulumi/pulumi";
import type { HostingClient } from "../api/client";
import { z } from "zod";
import { ACCOUNT_NAME, ACCOUNT_NAME_RULE } from "../provider/accounts";
import { clientFor, resolveConnection } from "../provider/config";

/**
 * The client for data sources in a program: stack config `hosting:*`, then the environment; with
 * an account name, that named account's connection.
 */
export function programClient(account?: string): HostingClient {
  return clientFor(
    resolveConnection((key) => {
      const v = pulumi.runtime.getConfig(key);
      return v && v.length > 0 ? v : undefined;
    }, account),
  );
}

/** The optional `account` argument of every data source, checked before any request. */
export const accountArg = {
  account: z.string({ error: ACCOUNT_NAME_RULE }).regex(ACCOUNT_NAME, ACCOUNT_NAME_RULE).optional(),
};
