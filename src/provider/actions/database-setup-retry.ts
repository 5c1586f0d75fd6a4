import * as pulumi from "@pulumi/pulumi";
import type { AccountInput } from "../account-input";
import { HostingResource } from "../hosting-resource";

/** Inputs of {@link DatabaseSetupRetry}. */
export interface DatabaseSetupRetryArgs extends AccountInput {
  /** The database whose setup to restart. Changing it replaces the resource (a retry there). */
  databaseId: pulumi.Input<string>;
  /** Any values; when one of them changes, the setup is retried again (like `@pulumi/command`). */
  triggers?: pulumi.Input<unknown[]>;
}

/**
 * Restarts a database's setup when created and again whenever `triggers` change; never during a
 * preview. Deleting the resource does nothing on the service.
 */
export class DatabaseSetupRetry extends HostingResource {
  /** The database. */
  declare readonly databaseId: pulumi.Output<string>;
  /** The values whose change retries the setup again. */
  declare readonly triggers: pulumi.Output<unknown[] | undefined>;
  /** The named account; undefined for the default account. */
  declare readonly account: pulumi.Output<string | undefined>;
  /** The service's answer to the last retry. */
  declare readonly message: pulumi.Output<string>;

  /**
   * @param name The Pulumi resource name.
   * @param args The database and the triggers.
   * @param opts Pulumi resource options.
   */
  constructor(name: string, args: DatabaseSetupRetryArgs, opts?: pulumi.CustomResourceOptions) {
    const props = {
      databaseId: args.databaseId,
      triggers: args.triggers,
      account: args.account,
      message: undefined,
    };
    super("DatabaseSetupRetry", name, props, opts);
  }
}
