import type { Message } from "../api";
import type { AccountOption } from "./account-option";
import { action } from "./data-source";

/** Arguments of {@link retryDatabaseSetup}. */
export interface RetryDatabaseSetupArgs extends AccountOption {
  /** The database whose setup to restart. */
  databaseId: string;
}

/** Arguments of {@link startVm}. */
export interface StartVmArgs extends AccountOption {
  /** The VM to start. */
  vmId: string;
}

/** Arguments of {@link deleteBackup}. */
export interface DeleteBackupArgs extends AccountOption {
  /** The app, database or VM the backup belongs to. */
  projectId: string;
  /** The backup to delete. */
  backupId: string;
}

/**
 * Restarts the setup of a database, for scripts. It refuses to run during a preview: in a
 * Pulumi program use {@link DatabaseSetupRetry}, which acts on create and when triggers change.
 */
export const retryDatabaseSetup: (args: RetryDatabaseSetupArgs) => Promise<Message> =
  action("retryDatabaseSetup");

/**
 * Starts a VM, for scripts. It refuses to run during a preview: in a Pulumi program use
 * {@link VmStart}.
 */
export const startVm: (args: StartVmArgs) => Promise<Message> = action("startVm");

/**
 * Deletes a backup, for scripts; a RetentionPeriodError when it is younger than the minimum
 * retention age. It refuses to run during a preview: in a Pulumi program use
 * {@link BackupDeletion}.
 */
export const deleteBackup: (args: DeleteBackupArgs) => Promise<Message> = action("deleteBackup");
