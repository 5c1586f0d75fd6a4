import type * as pulumi from "@pulumi/pulumi";
import { assertType } from "../../base";
import type { ArgKeys, SameKeys } from "../fields";
import type { OutputKeys } from "../hosting-resource";
import { AppToggle, type AppToggleArgs } from "../toggles/toggle-resource";
import { analyticsFields } from "./fields";

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
    super("AppAnalytics", analyticsFields, name, args, opts);
  }
}

// The hand-written Args and outputs name exactly the declared fields.
assertType<SameKeys<keyof AppAnalyticsArgs, ArgKeys<typeof analyticsFields> | "account">>(true);
assertType<SameKeys<OutputKeys<AppAnalytics>, keyof typeof analyticsFields | "account">>(true);
