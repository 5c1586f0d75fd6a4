import { clock } from "../clock";
import type { HostingClient } from "../../api/client";
import { HostingApiError } from "../../api/errors/api-error";
import { HostingConnectionError } from "../../api/errors/connection-error";
import { HostingError } from "../../api/errors/hosting-error";
import type { AppSummary } from "../../api/types";
import { listAppsSince } from "../app-directory";
import { LostCreateReplyError } from "../errors/lost-create-reply-error";
import { withKeyLock } from "../keyed-lock";
import { namingAppInput } from "./refusal";
import { DEFAULT_SETUP_TIMEOUT_S } from "./schema";

/** How long after a lost reply the provider looks again before concluding nothing was made. */
const SECOND_LOOK_MS = 1000;

export interface NewApp {
  name: string;
  subdomain?: string;
  env?: Record<string, string>;
  /** The create's time budget; recovery stops trying to read the app list after it. */
  setupTimeoutSeconds?: number;
}

/** Connection failures, 408 and 5xx of a list: asking again may work. */
function transient(err: unknown): boolean {
  if (HostingConnectionError.isInstance(err)) return true; // dropped connection or timeout
  if (HostingApiError.isInstance(err)) return err.status === 408 || err.status >= 500;
  return false;
}

/**
 * POST /apps once; if its reply is lost, find the app this request made. Only an app that
 * provably came from this create is taken: "before" is a fresh list taken right before the POST,
 * same-named creates of this process run one at a time from that list to the end of recovery, an
 * app must carry this name (and this subdomain when set), and more than one candidate fails.
 */
export function createApp(
  client: HostingClient,
  app: NewApp,
  archivePath: string,
): Promise<string> {
  const ours = (a: AppSummary) =>
    a.name === app.name && (app.subdomain === undefined || a.subdomain === app.subdomain);
  // Keyed on the account (the token's digest), not the API URL as spelled: two spellings of one
  // service (`localhost`, `127.0.0.1`) must not race. The name alone, not the subdomain too: an
  // app without a subdomain counts any same-named new app as its own.
  return withKeyLock(`create\u0000${client.accountKey}\u0000${app.name}`, async () => {
    // A list requested from now on: never an older cached one, but creates of other names that
    // start together share it.
    const before = new Set(
      (await listAppsSince(client, clock.now())).filter((e) => ours(e.app)).map((e) => e.app.id),
    );
    // On the clock recovery's deadline is checked against (a test's virtual one, too).
    const sentAt = new Date(clock.now());
    try {
      return (await client.createApp({ archivePath, env: app.env ?? {} })).id;
    } catch (err) {
      // Only the reply was lost: the client says when the POST may have taken effect.
      if (!(HostingError.isInstance(err) && err.mayHaveTakenEffect)) throw namingAppInput(err);
      const giveUpAt =
        sentAt.getTime() + (app.setupTimeoutSeconds ?? DEFAULT_SETUP_TIMEOUT_S) * 1000;
      const isNew = (a: AppSummary) => ours(a) && !before.has(a.id);
      return recover(client, app.name, sentAt, giveUpAt, isNew, err);
    }
  });
}

/**
 * A fresh app list. Without it nothing can be known, and failing here is the one outcome that may
 * leave an app outside the stack: transient failures are asked again while the create's budget lasts.
 */
async function listPatiently(client: HostingClient, giveUpAt: number) {
  for (;;) {
    try {
      return await listAppsSince(client, clock.now());
    } catch (err) {
      if (!transient(err) || clock.now() + SECOND_LOOK_MS >= giveUpAt) throw err;
      await clock.sleep(SECOND_LOOK_MS);
    }
  }
}

async function recover(
  client: HostingClient,
  name: string,
  sentAt: Date,
  giveUpAt: number,
  isNew: (a: AppSummary) => boolean,
  lost: HostingError,
): Promise<string> {
  // The client's own advice (list the apps) is what this function does: leave it out.
  const said = lost.lostReply?.failure ?? lost.message;
  const what = `creating app "${name}": ${said}`;
  for (let look = 0; ; look++) {
    let fresh: string[];
    try {
      const after = await listPatiently(client, giveUpAt);
      fresh = after.filter((e) => isNew(e.app)).map((e) => e.app.id);
    } catch (listErr) {
      throw new LostCreateReplyError(
        `${what}. The reply was lost, and the app list could not be read to tell whether the app ` +
          `was made (${listErr instanceof Error ? listErr.message : String(listErr)}). Before ` +
          `running \`pulumi up\` again, list your apps (getApps() or the dashboard): if an app ` +
          `named "${name}" was created at ${sentAt.toISOString()} or later, set adoptId to its ` +
          "id on this App; if none was, just run `pulumi up` again.",
        [],
        lost,
      );
    }
    if (fresh.length === 1) return fresh[0];
    if (fresh.length > 1) {
      throw new LostCreateReplyError(
        `${what}. The reply was lost and ${fresh.length} new apps named "${name}" appeared ` +
          `(${fresh.join(", ")}); none is adopted, since any of them may belong to another ` +
          "program using this token. Set adoptId on this App to the one that is yours, delete " +
          "the others, and run `pulumi up` again.",
        fresh,
        lost,
      );
    }
    if (look > 0) {
      throw new LostCreateReplyError(
        `${what}. The reply was lost and no new app named "${name}" appeared, so the create did ` +
          "not take effect: run `pulumi up` again. (Should such an app show up later, set adoptId " +
          "to its id or delete it.)",
        [],
        lost,
      );
    }
    // A gateway may answer before the service has finished: give it a moment, then look again.
    await clock.sleep(SECOND_LOOK_MS);
  }
}
