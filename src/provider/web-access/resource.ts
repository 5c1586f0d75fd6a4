import type * as pulumi from "@pulumi/pulumi";
import { assertType } from "../../base";
import type { ArgKeys, SameKeys } from "../fields";
import type { OutputKeys } from "../hosting-resource";
import { AppToggle, type AppToggleArgs } from "../toggles/toggle-resource";
import { webAccessFields } from "./fields";

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
    super("AppWebAccess", webAccessFields, name, args, opts);
  }
}

// The hand-written Args and outputs name exactly the declared fields.
assertType<SameKeys<keyof AppWebAccessArgs, ArgKeys<typeof webAccessFields> | "account">>(true);
assertType<SameKeys<OutputKeys<AppWebAccess>, keyof typeof webAccessFields | "account">>(true);
