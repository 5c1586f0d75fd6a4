import type * as pulumi from "@pulumi/pulumi";
import type { AccountInput } from "../account-input";
import { assertType } from "../../base";
import { registeredProps, type ArgKeys, type Fields, type SameKeys } from "../fields";
import { HostingResource, type OutputKeys } from "../hosting-resource";
import { toggleFields } from "./toggle-fields";

/** Inputs of the per-app on/off resources ({@link AppWebAccess}, {@link AppAnalytics}). */
export interface AppToggleArgs extends AccountInput {
  /** The app, e.g. `app.id`. Changing it replaces the resource. */
  appId: pulumi.Input<string>;
  /** On or off. Changes in place. */
  enabled: pulumi.Input<boolean>;
}

/** An on/off setting of an app, changed in place: the shape AppWebAccess and AppAnalytics share. */
export abstract class AppToggle extends HostingResource {
  /** The app. */
  declare readonly appId: pulumi.Output<string>;
  /** Whether the setting is on. */
  declare readonly enabled: pulumi.Output<boolean>;
  /** The named account; undefined for the default account. */
  declare readonly account: pulumi.Output<string | undefined>;

  protected constructor(
    kind: "AppWebAccess" | "AppAnalytics",
    fields: Fields,
    name: string,
    args: AppToggleArgs,
    opts?: pulumi.CustomResourceOptions,
  ) {
    super(kind, name, registeredProps(fields, args), opts);
  }
}

// The hand-written Args and outputs name exactly the declared fields.
assertType<SameKeys<keyof AppToggleArgs, ArgKeys<typeof toggleFields> | "account">>(true);
assertType<SameKeys<OutputKeys<AppToggle>, keyof typeof toggleFields | "account">>(true);
