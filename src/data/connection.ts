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

/** getXOutput from getX: takes Inputs, gives an Output. */
export function outputVariant<A, R>(
  fn: (args: A) => Promise<R>,
): (args: pulumi.Input<A> | pulumi.Inputs) => pulumi.Output<R> {
  return (args) =>
    pulumi.output(args as pulumi.Input<A>).apply((a) => fn(a as A)) as pulumi.Output<R>;
}
