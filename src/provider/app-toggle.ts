import * as pulumi from "@pulumi/pulumi";
import type { AccountInput } from "./account-input";

export interface AppToggleArgs extends AccountInput {
  appId: pulumi.Input<string>;
  enabled: pulumi.Input<boolean>;
}

/** An on/off setting of an app, changed in place: the shape AppWebAccess and AppAnalytics share. */
export abstract class AppToggle extends pulumi.dynamic.Resource {
  declare readonly appId: pulumi.Output<string>;
  declare readonly enabled: pulumi.Output<boolean>;
  /** The named account; undefined for the default account. */
  declare readonly account: pulumi.Output<string | undefined>;

  protected constructor(
    provider: pulumi.dynamic.ResourceProvider,
    kind: "AppWebAccess" | "AppAnalytics",
    name: string,
    args: AppToggleArgs,
    opts?: pulumi.CustomResourceOptions,
  ) {
    super(provider, name, { ...args, account: args.account }, opts, "hosting", kind);
  }
}
