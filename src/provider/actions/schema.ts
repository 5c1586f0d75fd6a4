import { z } from "zod";
import { idInput } from "../input-rules";

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
