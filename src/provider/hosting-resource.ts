import * as pulumi from "@pulumi/pulumi";
import type { ResourceKind } from "./resource-kind";
import { providerText } from "./provider-text";

/** The names of a resource class's declared outputs (not `id` and `urn`). */
export type OutputKeys<R> = Exclude<
  { [K in keyof R]: R[K] extends pulumi.Output<unknown> ? K : never }[keyof R],
  keyof pulumi.CustomResource
> &
  string;

/**
 * A resource served by Pulumi's Node.js dynamic-provider host, as `pulumi.dynamic.Resource`
 * registers one (type `pulumi-nodejs:dynamic/hosting:<Kind>`, the provider in `__provider`), but
 * with the short `__provider` text of {@link providerText}.
 */
export abstract class HostingResource extends pulumi.CustomResource {
  protected constructor(
    kind: ResourceKind,
    name: string,
    props: pulumi.Inputs,
    opts?: pulumi.CustomResourceOptions,
  ) {
    // Pulumi's SDK takes a stack trace for each of the four promises of every registered property
    // (for its report of leaked promises, which names the resource and property besides) and
    // formats it at once, through the source-map support its program runner installs: about 90
    // traces per App, most of a program's time for 200 Apps. They are formatted as the error's
    // name alone meanwhile. An error thrown in here keeps its frames: V8 formats a trace when it
    // is first read, and by then the formatter is back.
    const format = Error.prepareStackTrace;
    Error.prepareStackTrace = nameOnly;
    try {
      super(
        `pulumi-nodejs:dynamic/hosting:${kind}`,
        name,
        { ...props, __provider: providerText(kind) },
        opts,
      );
    } finally {
      if (format) Error.prepareStackTrace = format;
      else delete (Error as { prepareStackTrace?: unknown }).prepareStackTrace;
    }
  }
}

const nameOnly = (err: Error): string => String(err);
