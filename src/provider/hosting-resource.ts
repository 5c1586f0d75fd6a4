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
    super(
      `pulumi-nodejs:dynamic/hosting:${kind}`,
      name,
      { ...props, __provider: providerText(kind) },
      opts,
    );
  }
}
