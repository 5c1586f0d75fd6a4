import * as pulumi from "@pulumi/pulumi";
import { thinProvider } from "../thin-provider";

export interface AppWebAccessArgs {
  appId: pulumi.Input<string>;
  /** false takes the app off the public web; deleting this resource turns it back on. */
  enabled: pulumi.Input<boolean>;
}

const provider = thinProvider("AppWebAccess");

/** Public web access of an app, toggled in place. */
export class AppWebAccess extends pulumi.dynamic.Resource {
  declare readonly appId: pulumi.Output<string>;
  declare readonly enabled: pulumi.Output<boolean>;

  constructor(name: string, args: AppWebAccessArgs, opts?: pulumi.CustomResourceOptions) {
    super(provider, name, { ...args }, opts, "hosting", "AppWebAccess");
  }
}
