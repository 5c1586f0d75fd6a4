import type { AppSummary } from "../../api/wire";
import { reportProgress } from "../../connection";
import { LeftOverAppError } from "../errors";

/*
 * Apps a create finds that look made from its inputs (same name and settings) and that no
 * resource of this deployment holds. What they are depends on the name:
 *
 * - The App's generated name (auto-name.ts) is given to no other resource of any stack: such an
 *   app was made by an earlier create of this very App (a deployment interrupted before Pulumi
 *   recorded it, on a service that ignores Idempotency-Key; or `retainOnDelete`). A new app is
 *   not made beside it: the create refuses, naming it, and `adoptId` takes it back. Its age does
 *   not matter.
 * - A name the program chose may be held by another stack of the program (review stacks,
 *   dev/prod) or another program: nothing here tells that from an interrupted create. Those apps
 *   are reported, never refused, taken or deleted, and no `adoptId` is advised.
 */

const listed = (apps: AppSummary[]) =>
  apps.map((a) => `${a.id} (created ${a.created_at ?? "at an unknown time"})`).join(", ");

/** The refusal beside apps of this App's own generated name: which, and the ways out. */
export function leftOverError(name: string, apps: AppSummary[]): LeftOverAppError {
  const first = apps[0];
  const them = apps.length === 1 ? "an app" : `${apps.length} apps`;
  return new LeftOverAppError(
    `app "${name}": not creating it, since ${them} with this App's own generated name and held ` +
      `by no resource of this stack exist: ${listed(apps)}. Only this App of this stack is given ` +
      "that name, so an earlier create of it made that app: a deployment interrupted before " +
      "Pulumi recorded it (the service did not recognise the repeated create: it ignores " +
      "Idempotency-Key), or a destroy with retainOnDelete. To take it back, set " +
      `adoptId: "${first.id}" on this App and run \`pulumi up\`; to start afresh, delete it.`,
    apps.map((a) => a.id),
  );
}

/** The note beside same-named apps of a name the program chose: what is known, what to check. */
export function reportBesides(name: string, made: string, apps: AppSummary[]): void {
  reportProgress(
    `app "${name}": made ${made}; ${apps.length === 1 ? "an app" : "apps"} of the same name and ` +
      `settings that no resource of this stack holds exist besides: ${listed(apps)}. Another ` +
      "stack or program may hold them; if one was left by an interrupted deployment of this " +
      "stack (a service that ignores Idempotency-Key), it is nobody's now: delete it. Leave " +
      "`name` unset to have each stack's apps named apart, which lets an interrupted create be " +
      "recognised",
  );
}
