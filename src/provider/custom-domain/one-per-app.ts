import { ProgramInputError } from "../program-error";

/*
 * An app takes one custom domain: the service refuses a second with 409, but only at `up`, after
 * the app was made. What a program can know when it builds the resources: two CustomDomains given
 * the same `appId` object (the same `app.id` Output). Different Outputs that resolve to the same
 * id cannot be told apart here; the service's 409 then says it, with the same advice.
 */

/** The first CustomDomain's name per `appId` object of this program run. */
const taken = new WeakMap<object, string>();

export const ONE_DOMAIN_PER_APP =
  "an app takes one custom domain: keep one CustomDomain per App (give the other domain its own " +
  "App), or redirect the extra hostname at your DNS or CDN";

/**
 * Throws when another CustomDomain of this program already uses this `appId` Output; the error is
 * one Pulumi prints as its message alone (see program-error.ts).
 */
export function refuseSecondDomain(name: string, appId: unknown): void {
  if (typeof appId !== "object" || appId === null) return;
  const first = taken.get(appId);
  if (first === undefined) {
    taken.set(appId, name);
    return;
  }
  throw new ProgramInputError(
    "appId",
    `CustomDomain "${name}": its appId is the app of CustomDomain "${first}" too; ${ONE_DOMAIN_PER_APP}`,
  );
}
