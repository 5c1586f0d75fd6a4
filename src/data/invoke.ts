import * as pulumi from "@pulumi/pulumi";
import { HostingInputError } from "../api/errors";

/*
 * Dynamic providers have no invokes, so the data sources are plain functions in the program.
 * They take Pulumi's invoke options anyway, so calls read like any provider's, and honour the
 * ones that mean something here.
 */

/** Refuses an option that would silently not do what the caller means. */
export function checkInvokeOptions(fn: string, opts: pulumi.InvokeOptions | undefined): void {
  if (opts?.provider !== undefined) {
    throw new HostingInputError(
      "provider",
      `${fn}: opts.provider has no effect: pulumi-hosting's data sources call the API from ` +
        `the program; the connection comes from hosting:apiUrl and hosting:token ` +
        `(stack config, or HOSTING_API_URL and HOSTING_TOKEN), or from a named account given ` +
        `as the account argument. Remove the provider option.`,
    );
  }
}

/**
 * The Output form of a data source: resolves Input arguments, waits for `opts.dependsOn`, and,
 * like Pulumi's own output invokes, stays unknown (does not call the API) while an argument or
 * a dependency's id is unknown, e.g. during a preview that creates it.
 */
export function invokeOutput<A, R>(
  fn: (args: A, opts?: pulumi.InvokeOptions) => Promise<R>,
  args: object | undefined,
  opts: pulumi.InvokeOutputOptions = {},
): pulumi.Output<R> {
  // Now, not once the arguments are known: with unknown ones a preview would never say it.
  checkInvokeOptions(`${fn.name}Output`, opts);
  const { dependsOn, ...invokeOpts } = opts;
  return pulumi
    .all([pulumi.output(args ?? {}), dependencyIds(dependsOn)])
    .apply(([a]) => fn(a as A, invokeOpts));
}

/** The ids (custom resources) or URNs (components) of `dependsOn`, known once they exist. */
function dependencyIds(dependsOn: pulumi.InvokeOutputOptions["dependsOn"]): pulumi.Output<unknown> {
  return pulumi
    .output(dependsOn ?? [])
    .apply((deps) =>
      pulumi.all([deps].flat().map((r) => (pulumi.CustomResource.isInstance(r) ? r.id : r.urn))),
    );
}
