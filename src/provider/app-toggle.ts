import * as pulumi from "@pulumi/pulumi";

export interface AppToggleArgs {
  appId: pulumi.Input<string>;
  enabled: pulumi.Input<boolean>;
}

/** An on/off setting of an app, changed in place: the shape AppWebAccess and AppAnalytics share. */
export abstract class AppToggle extends pulumi.dynamic.Resource {
  declare readonly appId: pulumi.Output<string>;
  declare readonly enabled: pulumi.Output<boolean>;

  protected constructor(
    provider: pulumi.dynamic.ResourceProvider,
    kind: "AppWebAccess" | "AppAnalytics",
    name: string,
    args: AppToggleArgs,
    opts?: pulumi.CustomResourceOptions,
  ) {
    super(provider, name, { ...args }, opts, "hosting", kind);
  }
}
