import { z } from "zod";
import { parseArgs } from "../provider/validate";
import { accountArg, programClient, type AccountOption } from "./connection";

/* Operations that are actions, not state: plain functions, run when the program calls them. */

const id = (what: string) => z.string().min(1, `${what} is required`);

/** Restarts the setup of a database. */
export async function retryDatabaseSetup(
  a: { databaseId: string } & AccountOption,
): Promise<{ message: string }> {
  const { databaseId, account } = parseArgs(
    "retryDatabaseSetup",
    z.strictObject({ databaseId: id("databaseId"), ...accountArg }),
    a,
  );
  return programClient(account).retryDatabaseSetup(databaseId);
}

/** Starts a VM. */
export async function startVm(a: { vmId: string } & AccountOption): Promise<{ message: string }> {
  const { vmId, account } = parseArgs(
    "startVm",
    z.strictObject({ vmId: id("vmId"), ...accountArg }),
    a,
  );
  return programClient(account).startVm(vmId);
}

/** Deletes a backup; a RetentionPeriodError if it is younger than the minimum retention age. */
export async function deleteBackup(
  a: { projectId: string; backupId: string } & AccountOption,
): Promise<{ message: string }> {
  const { projectId, backupId, account } = parseArgs(
    "deleteBackup",
    z.strictObject({ projectId: id("projectId"), backupId: id("backupId"), ...accountArg }),
    a,
  );
  return programClient(account).deleteBackup(projectId, backupId);
}
