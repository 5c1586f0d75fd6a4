import { actionFields, target } from "../actions/action-fields";

/** BackupDeletion's fields, declared once. */
export const backupDeletionFields = actionFields(
  {
    projectId: target(
      "The app, database or VM the backup belongs to.",
      "The app, database or VM the backup belonged to.",
    ),
    backupId: target(
      "The backup to delete. Changing either id replaces the resource (that backup is deleted).",
      "The deleted backup.",
    ),
  },
  "the deletion is sent",
);
