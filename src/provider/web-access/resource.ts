import type * as pulumi from "@pulumi/pulumi";
import { AppToggle, type AppToggleArgs } from "../app-toggle";
import { thinProvider } from "../thin-provider";

export interface AppWebAccessArgs extends AppToggleArgs {
  /** false takes the app off the public web; deleting this resource turns it back on. */
  enabled: pulumi.Input<boolean>;
}

const provider = thinProvider("AppWebAccess");

/** Public web access of an app, toggled in place. */
export class AppWebAccess extends AppToggle {
  constructor(name: string, args: AppWebAccessArgs, opts?: pulumi.CustomResourceOptions) {
    super(provider, "AppWebAccess", name, args, opts);
  }
}
