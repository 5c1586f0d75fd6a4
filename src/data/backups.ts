import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { parseArgs } from "../provider/validate";
import { accountArg, outputVariant, programClient, type AccountOption } from "./connection";

const args = z.strictObject({
  projectId: z.string().min(1, "projectId is required"),
  backupId: z.string().min(1, "backupId is required"),
  ...accountArg,
});

/** A signed, expiring download URL for a backup, as a secret. */
export async function getBackupDownloadUrl(
  a: { projectId: string; backupId: string } & AccountOption,
): Promise<{ url: pulumi.Output<string> }> {
  const { projectId, backupId, account } = parseArgs("getBackupDownloadUrl", args, a);
  const res = await programClient(account).getBackupDownloadUrl(projectId, backupId);
  return { url: pulumi.secret(res.url) };
}
export const getBackupDownloadUrlOutput = outputVariant(getBackupDownloadUrl);
