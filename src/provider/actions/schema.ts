import { z } from "zod";
import { assertType } from "../../base";
import type { SameKeys, SchemaKeys } from "../fields";
import { idInput } from "../../inputs";
import type { backupDeletionFields, databaseSetupRetryFields, vmStartFields } from "./fields";

/*
 * Inputs of the action resources. Each names its target (a change replaces the resource, so the
 * action runs on the new target) and takes `triggers`: any change to them runs the action again.
 */

const triggers = z
  .array(z.unknown(), {
    error: "triggers must be a list of values; a change runs the action again",
  })
  .optional();

export const vmStartInputSchema = z.strictObject({
  vmId: idInput("vmId", "pass the id of one of your VMs"),
  triggers,
});

export const databaseSetupRetryInputSchema = z.strictObject({
  databaseId: idInput("databaseId", "pass a database id, e.g. from getDatabase()"),
  triggers,
});

export const backupDeletionInputSchema = z.strictObject({
  projectId: idInput("projectId", "pass the id of the app, database or VM the backup belongs to"),
  backupId: idInput("backupId", "pass the id of the backup to delete"),
  triggers,
});

// The rules and the declarations (fields.ts) name the same fields.
assertType<SameKeys<keyof typeof vmStartInputSchema.shape, SchemaKeys<typeof vmStartFields>>>(true);
assertType<
  SameKeys<
    keyof typeof databaseSetupRetryInputSchema.shape,
    SchemaKeys<typeof databaseSetupRetryFields>
  >
>(true);
assertType<
  SameKeys<keyof typeof backupDeletionInputSchema.shape, SchemaKeys<typeof backupDeletionFields>>
>(true);
