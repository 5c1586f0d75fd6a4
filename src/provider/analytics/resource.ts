import type * as pulumi from "@pulumi/pulumi";
import { AppToggle, type AppToggleArgs } from "../app-toggle";

/** Inputs of {@link AppAnalytics}. */
export interface AppAnalyticsArgs extends AppToggleArgs {
  /**
   * Traffic analytics (needed by {@link getAppDashboard}); deleting this resource turns it off
   * (the platform default). Changes in place.
   */
  enabled: pulumi.Input<boolean>;
}

/**
 * Traffic analytics of an app, toggled in place; refresh reads the live state.
 * @example
 * ```ts
 * new hosting.AppAnalytics("analytics", { appId: app.id, enabled: true });
 * ```
 */
export class AppAnalytics extends AppToggle {
  /**
   * @param name The Pulumi resource name.
   * @param args The app and whether analytics is on.
   * @param opts Pulumi resource options.
   */
  constructor(name: string, args: AppAnalyticsArgs, opts?: pulumi.CustomResourceOptions) {
    super("AppAnalytics", name, args, opts);
  }
}
