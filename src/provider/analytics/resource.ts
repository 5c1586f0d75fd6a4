import type * as pulumi from "@pulumi/pulumi";
import { AppToggle, type AppToggleArgs } from "../app-toggle";
import { thinProvider } from "../thin-provider";

export interface AppAnalyticsArgs extends AppToggleArgs {
  /** Traffic analytics (needed by getAppDashboard); deleting this resource turns it off. */
  enabled: pulumi.Input<boolean>;
}

const provider = thinProvider("AppAnalytics");

/** Traffic analytics of an app, toggled in place; refresh reads the live state. */
export class AppAnalytics extends AppToggle {
  constructor(name: string, args: AppAnalyticsArgs, opts?: pulumi.CustomResourceOptions) {
    super(provider, "AppAnalytics", name, args, opts);
  }
}
