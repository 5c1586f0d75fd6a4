import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { assertType, type SameShape } from "../api/type-equality";
import { idInput } from "../shared/input-rules";
import { parseArgs } from "../shared/validate";
import type { GetBackupDownloadUrlArgs } from "./backups";
import { apiCall } from "./api-call";
import { accountArg } from "./connection";
import type { BackupDownloadUrl } from "./results";

/* What the backup data source does, loaded on its first call (see load-calls.ts). */

const args = z.strictObject({
  projectId: idInput("projectId", "pass the id of the backup's app, database or VM"),
  backupId: idInput("backupId", "pass a backup id"),
  ...accountArg,
});
assertType<SameShape<z.input<typeof args>, GetBackupDownloadUrlArgs>>(true);

export async function getBackupDownloadUrl(
  a: GetBackupDownloadUrlArgs,
): Promise<BackupDownloadUrl> {
  const checked = parseArgs("getBackupDownloadUrl", args, a);
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
