import type * as pulumi from "@pulumi/pulumi";
import { registeredProps, type Fields } from "../fields";
import { HostingResource } from "../hosting-resource";
import type { ResourceKind } from "../resource-kind";

/**
 * What every action resource ({@link VmStart}, {@link DatabaseSetupRetry},
 * {@link BackupDeletion}) holds besides its target: it runs on create and whenever `triggers`
 * change, never during a preview.
 */
export abstract class ActionResource extends HostingResource {
  /** The values whose change runs the action again. */
  declare readonly triggers: pulumi.Output<unknown[] | undefined>;
  /** The named account; undefined for the default account. */
  declare readonly account: pulumi.Output<string | undefined>;
  /** The service's answer to the last run. */
  declare readonly message: pulumi.Output<string>;

  protected constructor(
    kind: Extract<ResourceKind, "VmStart" | "DatabaseSetupRetry" | "BackupDeletion">,
    fields: Fields,
    name: string,
    args: object,
    opts?: pulumi.CustomResourceOptions,
  ) {
    super(kind, name, registeredProps(fields, args), opts);
  }
}
