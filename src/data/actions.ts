import { z } from "zod";
import type { Message } from "../api/types";
import { parseArgs } from "../provider/validate";
import { programClient } from "./connection";

/* Operations that are actions, not state: plain functions, run when the program calls them. */

const id = (what: string) => z.string().min(1, `${what} is required`);

/**
 * Restarts the setup of a database, when the program calls it; replies with the service's message.
 */
export async function retryDatabaseSetup(a: { databaseId: string }): Promise<Message> {
  const { databaseId } = parseArgs(
    "retryDatabaseSetup",
    z.strictObject({ databaseId: id("databaseId") }),
    a,
  );
  return programClient().retryDatabaseSetup(databaseId);
}

/** Starts a VM, when the program calls it; replies with the service's message. */
export async function startVm(a: { vmId: string }): Promise<Message> {
  const { vmId } = parseArgs("startVm", z.strictObject({ vmId: id("vmId") }), a);
  return programClient().startVm(vmId);
}

/** Deletes a backup; a RetentionPeriodError if it is younger than the minimum retention age. */
export async function deleteBackup(a: { projectId: string; backupId: string }): Promise<Message> {
  const { projectId, backupId } = parseArgs(
    "deleteBackup",
    z.strictObject({ projectId: id("projectId"), backupId: id("backupId") }),
    a,
  );
  return programClient().deleteBackup(projectId, backupId);
}
