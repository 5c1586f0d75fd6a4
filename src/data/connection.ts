import * as pulumi from "@pulumi/pulumi";
import type { HostingClient } from "../api/client";
import { clientFor, resolveConnection } from "../provider/config";

/** The client for data sources in a program: stack config `hosting:*`, then the environment. */
export function programClient(): HostingClient {
  return clientFor(
    resolveConnection((key) => {
      const v = pulumi.runtime.getConfig(key);
      return v && v.length > 0 ? v : undefined;
    }),
  );
}
