import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { HostingInputError } from "../api/errors";
import type { Message } from "../api/types";
import type { DeleteBackupArgs, RetryDatabaseSetupArgs, StartVmArgs } from "./actions";
import { idInput } from "../shared/input-rules";
import { parseArgs } from "../shared/validate";
import { apiCall } from "./api-call";
import { accountArg } from "./connection";

/*
 * What the action functions do, loaded on their first call (see load-calls.ts). For scripts: A Pulumi program runs in full on every preview, so
 * inside one they refuse to run during a preview and point at the resource that acts only on
 * create and when its triggers change.
 */

function refuseInPreview(fn: string, resource: string, example: string): void {
  if (!pulumi.runtime.isDryRun()) return;
  throw new HostingInputError(
    fn,
    `${fn} was called during a preview, where it would act on every \`pulumi preview\`; ` +
      `in a Pulumi program use the ${resource} resource instead (${example}), which acts on ` +
      "create and when its triggers change, never on preview",
  );
}

export async function retryDatabaseSetup(a: RetryDatabaseSetupArgs): Promise<Message> {
  refuseInPreview(
    "retryDatabaseSetup",
    "DatabaseSetupRetry",
    'new hosting.DatabaseSetupRetry("retry", { databaseId })',
  );
  const args = parseArgs(
    "retryDatabaseSetup",
    z.strictObject({ databaseId: idInput("databaseId", "pass a database id"), ...accountArg }),
    a,
  );
  return apiCall("retryDatabaseSetup", args, (c) => c.retryDatabaseSetup(args.databaseId));
}

export async function startVm(a: StartVmArgs): Promise<Message> {
  refuseInPreview("startVm", "VmStart", 'new hosting.VmStart("start", { vmId })');
  const args = parseArgs(
    "startVm",
    z.strictObject({ vmId: idInput("vmId", "pass a VM id"), ...accountArg }),
    a,
  );
  return apiCall("startVm", args, (c) => c.startVm(args.vmId));
}

export async function deleteBackup(a: DeleteBackupArgs): Promise<Message> {
  refuseInPreview(
    "deleteBackup",
    "BackupDeletion",
    'new hosting.BackupDeletion("old", { projectId, backupId })',
  );
  const args = parseArgs(
    "deleteBackup",
    z.strictObject({
      projectId: idInput("projectId", "pass the id of the backup's app, database or VM"),
      backupId: idInput("backupId", "pass a backup id"),
      ...accountArg,
    }),
    a,
  );
  return apiCall("deleteBackup", args, (c) => c.deleteBackup(args.projectId, args.backupId));
}
