import * as pulumi from "@pulumi/pulumi";
import type { AccountInput } from "../account-input";
import { HostingResource } from "../hosting-resource";

/** Inputs of {@link VmStart}. */
export interface VmStartArgs extends AccountInput {
  /** The VM to start. Changing it replaces the resource, which starts the new VM. */
  vmId: pulumi.Input<string>;
  /** Any values; when one of them changes, the VM is started again (like `@pulumi/command`). */
  triggers?: pulumi.Input<unknown[]>;
}

/**
 * Starts a VM when created and again whenever `triggers` change; never during a preview.
 * Deleting the resource does nothing on the service (the VM keeps running).
 */
export class VmStart extends HostingResource {
  /** The VM. */
  declare readonly vmId: pulumi.Output<string>;
  /** The values whose change starts the VM again. */
  declare readonly triggers: pulumi.Output<unknown[] | undefined>;
  /** The named account; undefined for the default account. */
  declare readonly account: pulumi.Output<string | undefined>;
  /** The service's answer to the last start. */
  declare readonly message: pulumi.Output<string>;

  /**
   * @param name The Pulumi resource name.
   * @param args The VM and the triggers.
   * @param opts Pulumi resource options.
   */
  constructor(name: string, args: VmStartArgs, opts?: pulumi.CustomResourceOptions) {
    const props = {
      vmId: args.vmId,
      triggers: args.triggers,
      account: args.account,
      message: undefined,
    };
    super("VmStart", name, props, opts);
  }
}
