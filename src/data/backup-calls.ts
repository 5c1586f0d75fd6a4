import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { idInput, parseArgs } from "../inputs";
import { apiCall } from "./api-call";
import { accountArg } from "./account-arg";
import type { BackupDownloadUrl } from "./results";

/* What the backup data source does (see calls.ts). */

/** The argument schema, which backups.ts holds equal to its documented type. */
export const backupArgs = z.strictObject({
  projectId: idInput("projectId", "pass the id of the backup's app, database or VM"),
  backupId: idInput("backupId", "pass a backup id"),
  ...accountArg,
});

export async function getBackupDownloadUrl(a: unknown): Promise<BackupDownloadUrl> {
  const checked = parseArgs("getBackupDownloadUrl", backupArgs, a);
  return apiCall(
    "getBackupDownloadUrl",
    checked,
    async (c) => {
      const res = await c.getBackupDownloadUrl(checked.projectId, checked.backupId);
      return { url: pulumi.secret(res.url) };
    },
    (mocked) => ({ ...mocked, url: pulumi.secret(mocked.url) }),
  );
}
