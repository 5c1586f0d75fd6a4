import { NotFoundError } from "../../api/wire";
import { actionHandler } from "../actions/action-handler";
import { backupDeletionFields } from "./fields";
import { backupDeletionInputSchema } from "./schema";

/** Deletes the backup on create and whenever `triggers` change. */
export const backupDeletionHandler = actionHandler({
  schema: backupDeletionInputSchema,
  fields: backupDeletionFields,
  id: (i) => `${i.projectId}/${i.backupId}`,
  async run(client, i) {
    try {
      return (await client.deleteBackup(i.projectId, i.backupId)).message;
    } catch (err) {
      // The goal is "this backup does not exist": one already deleted (by an earlier run whose
      // reply was lost, or by hand) is done, not an error.
      if (err instanceof NotFoundError) return `backup ${i.backupId} was already deleted`;
      throw err;
    }
  },
});
