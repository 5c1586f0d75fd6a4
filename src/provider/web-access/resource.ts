import type * as pulumi from "@pulumi/pulumi";
import { AppToggle, type AppToggleArgs } from "../app-toggle";

/** Inputs of {@link AppWebAccess}. */
export interface AppWebAccessArgs extends AppToggleArgs {
  /**
   * false takes the app off the public web; deleting this resource turns it back on (the
   * platform default). Changes in place.
   */
  enabled: pulumi.Input<boolean>;
}

/**
 * Public web access of an app, toggled in place. The API reports no web-access state, so a
 * refresh can only tell that the app is gone.
 * @example
 * ```ts
 * new hosting.AppWebAccess("private", { appId: app.id, enabled: false });
 * ```
 */
export class AppWebAccess extends AppToggle {
  /**
   * @param name The Pulumi resource name.
   * @param args The app and whether web access is on.
   * @param opts Pulumi resource options.
   */
  constructor(name: string, args: AppWebAccessArgs, opts?: pulumi.CustomResourceOptions) {
    super("AppWebAccess", name, args, opts);
  }
}
