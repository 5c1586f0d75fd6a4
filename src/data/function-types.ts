import type * as pulumi from "@pulumi/pulumi";

/** A data source: called with its arguments, it resolves to what the service reports. */
export type DataSourceFunction<Args, Result> = (
  args: Args,
  opts?: pulumi.InvokeOptions,
) => Promise<Result>;

/** The Output form of a data source: arguments as Inputs, the result as an Output. */
export type DataSourceOutputFunction<Args, Result> = (
  args: Args,
  opts?: pulumi.InvokeOutputOptions,
) => pulumi.Output<Result>;
