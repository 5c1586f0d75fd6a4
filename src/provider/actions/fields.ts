import type { Field, Fields } from "../fields";

/*
 * The action resources' fields, declared once. Each names its target (a change replaces the
 * resource, so the action runs on the new target); `triggers` and `message` are shared.
 */

const target = (doc: string, outputDoc: string) =>
  ({ doc, outputDoc, type: "string", input: "required", replaces: true }) as const satisfies Field;

/**
 * An action's fields: its targets, the values whose change runs it again, and the service's
 * answer. `runsAgain` finishes the `triggers` doc ("..., the VM is started again").
 */
const action = <const T extends Fields>(targets: T, runsAgain: string) =>
  ({
    ...targets,
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

export const vmStartFields = action(
  {
    vmId: target(
      "The VM to start. Changing it replaces the resource, which starts the new VM.",
      "The VM.",
    ),
  },
  "the VM is started",
);

export const databaseSetupRetryFields = action(
  {
    databaseId: target(
      "The database whose setup to restart. Changing it replaces the resource (a retry there).",
      "The database.",
    ),
  },
  "the setup is retried",
);

export const backupDeletionFields = action(
  {
    projectId: target(
      "The app, database or VM the backup belongs to.",
      "The app, database or VM the backup belonged to.",
    ),
    backupId: target(
      "The backup to delete. Changing either id replaces the resource (that backup is deleted).",
      "The deleted backup.",
    ),
  },
  "the deletion is sent",
);
