import type * as pulumi from "@pulumi/pulumi";
import type { AccountInput } from "../account-input";
import { assertType } from "../../base";
import type { ArgKeys, SameKeys } from "../fields";
import type { OutputKeys } from "../hosting-resource";
import { ActionResource } from "../actions/action-resource";
import { databaseSetupRetryFields } from "./fields";

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
export class DatabaseSetupRetry extends ActionResource {
  /** The database. */
  declare readonly databaseId: pulumi.Output<string>;

  /**
   * @param name The Pulumi resource name.
   * @param args The database and the triggers.
   * @param opts Pulumi resource options.
   */
  constructor(name: string, args: DatabaseSetupRetryArgs, opts?: pulumi.CustomResourceOptions) {
    super("DatabaseSetupRetry", databaseSetupRetryFields, name, args, opts);
  }
}

// The hand-written Args and outputs name exactly the declared fields.
assertType<
  SameKeys<keyof DatabaseSetupRetryArgs, ArgKeys<typeof databaseSetupRetryFields> | "account">
>(true);
assertType<
  SameKeys<OutputKeys<DatabaseSetupRetry>, keyof typeof databaseSetupRetryFields | "account">
>(true);
