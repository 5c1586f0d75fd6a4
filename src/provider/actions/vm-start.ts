import * as pulumi from "@pulumi/pulumi";
import type { AccountInput } from "../account-input";
import { thinProvider } from "../thin-provider";

export interface VmStartArgs extends AccountInput {
  /** The VM to start. Changing it replaces the resource, which starts the new VM. */
  vmId: pulumi.Input<string>;
  /** Any values; when one of them changes, the VM is started again (like `@pulumi/command`). */
  triggers?: pulumi.Input<unknown[]>;
}

const provider = thinProvider("VmStart");

/**
 * Starts a VM when created and again whenever `triggers` change; never during a preview.
 * Deleting the resource does nothing on the service (the VM keeps running).
 */
export class VmStart extends pulumi.dynamic.Resource {
  declare readonly vmId: pulumi.Output<string>;
  declare readonly triggers: pulumi.Output<unknown[] | undefined>;
  /** The named account; undefined for the default account. */
  declare readonly account: pulumi.Output<string | undefined>;
  /** The service's answer to the last start. */
  declare readonly message: pulumi.Output<string>;

  constructor(name: string, args: VmStartArgs, opts?: pulumi.CustomResourceOptions) {
    const props = {
      vmId: args.vmId,
      triggers: args.triggers,
      account: args.account,
      message: undefined,
    };
    super(provider, name, props, opts, "hosting", "VmStart");
  }
}
