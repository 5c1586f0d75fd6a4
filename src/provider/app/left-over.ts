import type { AppSummary } from "../../api/wire";
import { LeftOverAppError } from "../errors";

/*
 * An app an interrupted create left behind, as a later create sees it: same name (and subdomain
 * when pinned), held by no resource of this deployment, made within the last hour. Older apps
 * of the same name are taken for someone else's on purpose and are not mentioned.
 */

export const LEFT_OVER_WINDOW_MS = 60 * 60 * 1000;

export function madeRecently(app: AppSummary, now: number): boolean {
  const t = Date.parse(app.created_at ?? "");
  return Number.isFinite(t) && now - t < LEFT_OVER_WINDOW_MS;
}

/** The refusal: which apps, and the two ways out (adoptId, or importing the pending create). */
export function leftOverError(
  name: string,
  urn: string | undefined,
  apps: AppSummary[],
): LeftOverAppError {
  const first = apps[0];
  const list = apps.map((a) => `${a.id} (created ${a.created_at})`).join(", ");
  const urnText = urn ?? "<this App's URN>";
  return new LeftOverAppError(
    `app "${name}": not creating it, since ${apps.length === 1 ? "an app" : "apps"} of this ` +
      `name made within the last hour and held by no resource of this stack exist: ${list}. ` +
      "An interrupted deployment most likely made it and the service did not recognise the " +
      "repeated create (it ignores Idempotency-Key). To take it over, set " +
      `adoptId: "${first.id}" on this App and run \`pulumi up\` (Pulumi's own ` +
      `\`pulumi refresh --import-pending-creates ${urnText} ${first.id}\` leaves a dynamic ` +
      "resource out of the stack). If it is not this App's, delete it or give this App another " +
      "name.",
    apps.map((a) => a.id),
  );
}
