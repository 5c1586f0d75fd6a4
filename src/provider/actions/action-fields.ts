import type { Field, Fields } from "../fields";

/*
 * What the action resources' declarations share (each kind's own is in its folder's fields.ts):
 * each names its target (a change replaces the resource, so the action runs on the new target);
 * `triggers` and `message` are the same for all.
 */

/** A target of an action: required, and a change replaces the resource. */
export const target = (doc: string, outputDoc: string) =>
  ({ doc, outputDoc, type: "string", input: "required", replaces: true }) as const satisfies Field;

/**
 * An action's fields: its targets, the values whose change runs it again, and the service's
 * answer. `runsAgain` finishes the `triggers` doc ("..., the VM is started again").
 */
export const actionFields = <const T extends Fields>(targets: T, runsAgain: string) =>
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
