import * as pulumi from "@pulumi/pulumi";
import { thinProvider } from "../thin-provider";

export interface AppAnalyticsArgs {
  appId: pulumi.Input<string>;
  /** Traffic analytics (needed by getAppDashboard); deleting this resource turns it off. */
  enabled: pulumi.Input<boolean>;
}

const provider = thinProvider("AppAnalytics");

/** Traffic analytics of an app, toggled in place; refresh reads the live state. */
export class AppAnalytics extends pulumi.dynamic.Resource {
  declare readonly appId: pulumi.Output<string>;
  declare readonly enabled: pulumi.Output<boolean>;

  constructor(name: string, args: AppAnalyticsArgs, opts?: pulumi.CustomResourceOptions) {
    super(provider, name, { ...args }, opts, "hosting", "AppAnalytics");
  }
}
