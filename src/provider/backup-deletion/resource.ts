import type * as pulumi from "@pulumi/pulumi";
import type { AccountInput } from "../account-input";
import { assertType } from "../../base";
import type { ArgKeys, SameKeys } from "../fields";
import type { OutputKeys } from "../hosting-resource";
import { ActionResource } from "../actions/action-resource";
import { backupDeletionFields } from "./fields";

/** Inputs of {@link BackupDeletion}. */
export interface BackupDeletionArgs extends AccountInput {
  /** The app, database or VM the backup belongs to. */
  projectId: pulumi.Input<string>;
  /** The backup to delete. Changing either id replaces the resource (that backup is deleted). */
  backupId: pulumi.Input<string>;
  /** Any values; when one of them changes, the deletion is sent again (like `@pulumi/command`). */
  triggers?: pulumi.Input<unknown[]>;
}

/**
 * Deletes a backup when created; a backup that is already gone (404) counts as deleted. A backup
 * younger than the minimum retention age fails with RetentionPeriodError and nothing is recorded,
 * so the next `pulumi up` tries again. Never runs during a preview. Deleting the resource does
 * nothing on the service (a deleted backup cannot come back).
 */
export class BackupDeletion extends ActionResource {
  /** The app, database or VM the backup belonged to. */
  declare readonly projectId: pulumi.Output<string>;
  /** The deleted backup. */
  declare readonly backupId: pulumi.Output<string>;

  /**
   * @param name The Pulumi resource name.
   * @param args The project, the backup and the triggers.
   * @param opts Pulumi resource options.
   */
  constructor(name: string, args: BackupDeletionArgs, opts?: pulumi.CustomResourceOptions) {
    super("BackupDeletion", backupDeletionFields, name, args, opts);
  }
}

// The hand-written Args and outputs name exactly the declared fields.
assertType<SameKeys<keyof BackupDeletionArgs, ArgKeys<typeof backupDeletionFields> | "account">>(
  true,
);
assertType<SameKeys<OutputKeys<BackupDeletion>, keyof typeof backupDeletionFields | "account">>(
  true,
);
