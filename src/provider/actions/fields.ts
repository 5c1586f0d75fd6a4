import type { Field, Fields } from "../fields";

/*
 * The action resources' fields, declared once. Each names its target (a change replaces the
 * resource, so the action runs on the new target); `triggers` and `message` are shared.
 */

const target = (doc: string, outputDoc: string) =>
  ({ doc, outputDoc, type: "string", input: "required", replaces: true }) as const satisfies Field;

/** Shared by every action: the values whose change runs it again, and the service's answer. */
const shared = (runsAgain: string) =>
  ({
    triggers: {
      doc: `Any values; when one of them changes, ${runsAgain} again (like \`@pulumi/command\`).`,
      outputDoc: "The values whose change runs the action again.",
      type: "unknown[]",
      input: "optional",
      // No triggers and an empty list are the same: nothing to run again for.
      default: [],
    },
    message: { doc: "The service's answer to the last run.", type: "string" },
  }) as const satisfies Fields;

export const vmStartFields = {
  vmId: target(
    "The VM to start. Changing it replaces the resource, which starts the new VM.",
    "The VM.",
  ),
  ...shared("the VM is started"),
} as const satisfies Fields;

export const databaseSetupRetryFields = {
  databaseId: target(
    "The database whose setup to restart. Changing it replaces the resource (a retry there).",
    "The database.",
  ),
  ...shared("the setup is retried"),
} as const satisfies Fields;

export const backupDeletionFields = {
  projectId: target(
    "The app, database or VM the backup belongs to.",
    "The app, database or VM the backup belonged to.",
  ),
  backupId: target(
    "The backup to delete. Changing either id replaces the resource (that backup is deleted).",
    "The deleted backup.",
  ),
  ...shared("the deletion is sent"),
} as const satisfies Fields;
