import type * as pulumi from "@pulumi/pulumi";
import type { AccountInput } from "../account-input";
import { assertType } from "../../base";
import type { ArgKeys, SameKeys } from "../fields";
import type { OutputKeys } from "../hosting-resource";
import { ActionResource } from "../actions/action-resource";
import { vmStartFields } from "./fields";

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
export class VmStart extends ActionResource {
  /** The VM. */
  declare readonly vmId: pulumi.Output<string>;

  /**
   * @param name The Pulumi resource name.
   * @param args The VM and the triggers.
   * @param opts Pulumi resource options.
   */
  constructor(name: string, args: VmStartArgs, opts?: pulumi.CustomResourceOptions) {
    super("VmStart", vmStartFields, name, args, opts);
  }
}

// The hand-written Args and outputs name exactly the declared fields.
assertType<SameKeys<keyof VmStartArgs, ArgKeys<typeof vmStartFields> | "account">>(true);
assertType<SameKeys<OutputKeys<VmStart>, keyof typeof vmStartFields | "account">>(true);
