import { z } from "zod";
import { assertType } from "../../base";
import { idInput } from "../../inputs";
import { triggers } from "../actions/action-schema";
import type { SameKeys, SchemaKeys } from "../fields";
import type { backupDeletionFields } from "./fields";

/** Inputs of BackupDeletion. */
export const backupDeletionInputSchema = z.strictObject({
  projectId: idInput("projectId", "pass the id of the app, database or VM the backup belongs to"),
  backupId: idInput("backupId", "pass the id of the backup to delete"),
  triggers,
});

// The rules and the declaration (fields.ts) name the same fields.
assertType<
  SameKeys<keyof typeof backupDeletionInputSchema.shape, SchemaKeys<typeof backupDeletionFields>>
>(true);
