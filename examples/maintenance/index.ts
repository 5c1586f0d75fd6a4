import * as pulumi from "@pulumi/pulumi";
import * as hosting from "pulumi-hosting";

/*
 * Operations as resources: each acts when first created and again only when its `triggers`
 * change, never on `pulumi preview` (a plain `hosting.startVm()` call here would run on every
 * preview, so it refuses to). Removing one from the program changes nothing on the service.
 *   pulumi config set vmId <vm id>
 *   pulumi config set database orders
 *   pulumi config set --path 'deleteBackups[0]' <backup id of that database>
 */
const config = new pulumi.Config();

// Bump `startRound` (pulumi config set startRound 2) to start the VM again on the next `up`.
const worker = new hosting.VmStart("worker", {
  vmId: config.require("vmId"),
  triggers: [config.get("startRound") ?? "1"],
});

const database = hosting.getDatabaseOutput({ name: config.require("database") });
const databaseId = database.apply((d) => d.id);
const retry = new hosting.DatabaseSetupRetry("retry-setup", {
  databaseId,
  triggers: [config.get("retryRound") ?? "1"],
});

// Backups younger than the retention age fail the `up` (RetentionPeriodError); nothing is
// recorded, so the next `up` tries again.
for (const backupId of config.getObject<string[]>("deleteBackups") ?? []) {
  new hosting.BackupDeletion(`backup-${backupId}`, { projectId: databaseId, backupId });
}

export const vmStarted = worker.message;
export const setupRetried = retry.message;
