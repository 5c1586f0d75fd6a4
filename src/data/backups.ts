import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { assertType, type SameShape } from "../api/type-equality";
import { parseArgs } from "../provider/validate";
import { programClient } from "./connection";
import { checkInvokeOptions, invokeOutput } from "./invoke";
import type { BackupDownloadUrl } from "./results";

/** Arguments of {@link getBackupDownloadUrl}. */
export interface GetBackupDownloadUrlArgs {
  /** The project (app, database or VM) the backup belongs to. */
  projectId: string;
  /** The backup's id. */
  backupId: string;
}

/** Arguments of {@link getBackupDownloadUrlOutput}: {@link GetBackupDownloadUrlArgs} as Inputs. */
export interface GetBackupDownloadUrlOutputArgs {
  /** The project (app, database or VM) the backup belongs to. */
  projectId: pulumi.Input<string>;
  /** The backup's id. */
  backupId: pulumi.Input<string>;
}

const args = z.strictObject({
  projectId: z.string().min(1, "projectId is required"),
  backupId: z.string().min(1, "backupId is required"),
});
assertType<SameShape<z.input<typeof args>, GetBackupDownloadUrlArgs>>(true);

/** A signed, expiring download URL for a backup, as a Pulumi secret. */
export async function getBackupDownloadUrl(
  a: GetBackupDownloadUrlArgs,
  opts?: pulumi.InvokeOptions,
): Promise<BackupDownloadUrl> {
  checkInvokeOptions("getBackupDownloadUrl", opts);
  const { projectId, backupId } = parseArgs("getBackupDownloadUrl", args, a);
  const res = await programClient().getBackupDownloadUrl(projectId, backupId);
  return { url: pulumi.secret(res.url) };
}

/** {@link getBackupDownloadUrl} for Inputs: an Output whose `url` is a secret. */
export function getBackupDownloadUrlOutput(
  a: GetBackupDownloadUrlOutputArgs,
  opts?: pulumi.InvokeOutputOptions,
): pulumi.Output<BackupDownloadUrl> {
  return invokeOutput(getBackupDownloadUrl, a, opts);
}
