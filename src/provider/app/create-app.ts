import { clock } from "../clock";
import {
  type HostingClient,
  ConflictError,
  HostingError,
  makeApiError,
  backoffDelayMs,
  isTransientError,
  type AppSummary,
} from "../../api/wire";
import { reportProgress } from "../../connection";
import { forgetApps, listAppsSince } from "../app-directory";
import { AppMadeError, AppNotTakenError, LostCreateReplyError } from "../errors";
import { withKeyLock } from "../keyed-lock";
import { createKey, MAX_GENERATIONS } from "./create-key";
import { mayBeMadeFrom, type CreatedShape } from "./created-shape";
import { heldFate, noteHeld } from "./held-apps";
import { isGeneratedName } from "./auto-name";
import { leftOverError, reportBesides } from "./left-over";
import { namingAppInput } from "./refusal";
import { DEFAULT_SETUP_TIMEOUT_S } from "./schema";

/** How long after a lost reply the provider looks again before concluding nothing was made. */
const SECOND_LOOK_MS = 1000;
/**
 * How long after its POST is answered a new app is first looked for. Its setup has begun by then,
 * so that one list serves as the check of what was made and as the first look at the setup: a
 * quick setup is seen done without a second list or a whole poll interval's wait. The setup began
 * before the answer, so a setup of this length is done by then; every millisecond more is one
 * each create waits (`pulumi up` runs 8 at once: 50 ms over 200 Apps is 1.25 s).
 */
export const FIRST_LOOK_MS = 200;

/** An app this create made (or took as the replay of its own earlier attempt). */
export interface MadeApp {
  id: string;
  /** When its POST was answered, on the provider's clock: it exists since then. */
  answeredAt: number;
}

export interface NewApp extends CreatedShape {
  /** The create's time budget; recovery and retries stop after it. */
  setupTimeoutSeconds?: number;
  /** The resource's URN, when the program sent it: without it the key is random. */
  urn?: string;
  /**
   * When the create began (before its source was packed), on the provider's clock: its "before"
   * view is a list requested since. Default: when createApp is called.
   */
  began?: number;
}

interface Attempt {
  client: HostingClient;
  app: NewApp;
  archivePath: string;
  ours: (a: AppSummary) => boolean;
  /** Every app id of the account right before the first POST. */
  before: Set<string>;
  sentAt: Date;
  giveUpAt: number;
}

/**
 * Creates the app and returns its id, never a second app for one logical create:
 *
 * - the POST carries a key stable across processes (create-key.ts): a service that honours keys
 *   answers a create repeated after a crash with the first attempt's app;
 * - what comes back is verified in a fresh list: an app that existed before the POST is taken
 *   only when it carries this name (and subdomain) and no resource of this deployment holds it;
 *   one that is gone (deleted since) or held by another resource makes the next key generation;
 * - a lost reply is resolved from the list (only an app new since "before" with this name is
 *   taken); when the list proves nothing was made, the POST is sent again while the budget lasts;
 * - a new app beside an app with this App's own generated name that nobody holds (a service that
 *   ignored the key of an interrupted create) is deleted again, and the error names the earlier
 *   app and the ways out; beside same-named apps of a name the program chose (maybe another
 *   stack's), the new app is kept and the others are only reported (left-over.ts).
 */
export function createApp(
  client: HostingClient,
  app: NewApp,
  archivePath: string,
): Promise<MadeApp> {
  const ours = (a: AppSummary) =>
    a.name === app.name && (app.subdomain === undefined || a.subdomain === app.subdomain);
  // Keyed on the account (the token's digest), not the API URL as spelled: two spellings of one
  // service (`localhost`, `127.0.0.1`) must not race. The name alone, not the subdomain too: an
  // app without a subdomain counts any same-named new app as its own.
  return withKeyLock(`create\u0000${client.accountKey}\u0000${app.name}`, async () => {
    // A list requested since the create began: never an older cached one (an app made before
    // the create began must be in it), but creates that began together share it, and one that
    // waited for its packing slot takes a list another started meanwhile.
    const listed = (await listAppsSince(client, app.began ?? clock.now())).map((e) => e.app);
    // On the clock recovery's deadline is checked against (a test's virtual one, too).
    const sentAt = new Date(clock.now());
    const budgetS = app.setupTimeoutSeconds ?? DEFAULT_SETUP_TIMEOUT_S;
    const at: Attempt = {
      client,
      app,
      archivePath,
      ours,
      before: new Set(listed.map((a) => a.id)),
      sentAt,
      giveUpAt: sentAt.getTime() + budgetS * 1000,
    };
    // Apps that look made from these inputs and that no resource of this deployment holds. One
    // that carries this App's generated name was made by this very App (auto-name.ts); one of a
    // name the program chose may be another stack's, so it is only reported, never refused.
    const unheld = listed.filter((a) => mayBeMadeFrom(a, app) && heldFate(a.id) === undefined);
    const leftovers = isGeneratedName(app.name, app.urn) ? unheld : [];
    for (let generation = 0; ; generation++) {
      const key =
        app.urn !== undefined && generation < MAX_GENERATIONS
          ? createKey({ account: client.accountKey, urn: app.urn }, app, generation)
          : undefined;
      const id = await postUntilAnswered(at, key, listed);
      const answeredAt = clock.now();
      reportProgress(`app "${app.name}": POST /apps answered with app ${id}`);
      await clock.sleep(FIRST_LOOK_MS);
      const verdict = await verify(at, id, answeredAt + FIRST_LOOK_MS);
      if (verdict === "new") {
        if (leftovers.length > 0) await refuseBesideLeftovers(at, id, leftovers);
        if (unheld.length > 0) reportBesides(app.name, id, unheld);
        noteHeld(id, "created");
        return { id, answeredAt };
      }
      if (verdict === "replayed") {
        reportProgress(
          `app "${app.name}": ${id} is the app an earlier attempt of this create made (same ` +
            "Idempotency-Key: this stack, this App, these inputs), a deployment interrupted before " +
            "Pulumi recorded it or one kept by retainOnDelete: it is taken, no second app is made",
        );
        noteHeld(id, "created");
        return { id, answeredAt };
      }
      if (key === undefined) {
        // A random key never replays: the app the service named is gone or is not this create's.
        // It is not kept in the stack (a later destroy would delete it, or a stack would hold an
        // app that does not exist).
        throw new AppNotTakenError(
          `creating app "${app.name}": the service answered with app ${id}, which is ` +
            `${verdict}; it is not taken, and not kept in the stack. Check the apps of this ` +
            "account, then run `pulumi up` again",
          id,
        );
      }
      reportProgress(
        `app "${app.name}": the service answered with app ${id}, which is ${verdict} ` +
          "(an earlier create with these inputs): asking for a new app",
      );
    }
  });
}

/** What the app the service answered with is to this create. */
type Verdict = "new" | "replayed" | "gone since" | "held by another resource" | "not this app";

/**
 * Reads a list requested at or after `since` (after the POST was answered; looking twice for an
 * app not there yet) and classifies `id`.
 */
async function verify(at: Attempt, id: string, since: number): Promise<Verdict> {
  let found: AppSummary | undefined;
  for (let look = 0; look < 2 && !found; look++) {
    if (look > 0) await clock.sleep(SECOND_LOOK_MS);
    try {
      const after = await listPatiently(at.client, at.giveUpAt, look === 0 ? since : undefined);
      found = after.find((e) => e.app.id === id)?.app;
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      throw new AppMadeError(
        `app "${at.app.name}" ${id} was created, but the app list could not be read to ` +
          `confirm it (${why}); it is kept in the stack: run \`pulumi up\` again`,
        id,
        err,
      );
    }
  }
  if (!found) return "gone since";
  // New since "before": this POST made it (or the lost-reply search found it by name).
  if (!at.before.has(id)) return "new";
  // Older: a replay of this key. Taken only if it looks made from these inputs and is free.
  if (!mayBeMadeFrom(found, at.app)) return "not this app";
  return heldFate(id) === undefined ? "replayed" : "held by another resource";
}

/**
 * POSTs until the service names an app: a lost reply is looked for in the list, and a create
 * the list proves was not made is sent again (same key) until the create's budget ends.
 */
async function postUntilAnswered(
  at: Attempt,
  key: string | undefined,
  listed: AppSummary[],
): Promise<string> {
  const { client, app } = at;
  for (let attempt = 0; ; attempt++) {
    try {
      const env = app.env ?? {};
      return (await client.createApp({ archivePath: at.archivePath, env, idempotencyKey: key })).id;
    } catch (err) {
      if (!(err instanceof HostingError && err.mayHaveTakenEffect)) {
        throw namingHolder(namingAppInput(err), app, listed);
      }
      const isNew = (a: AppSummary) => at.ours(a) && !at.before.has(a.id);
      const found = await recover(at, isNew, err);
      if (found !== undefined) return found;
      const wait = backoffDelayMs(attempt, Math.random, client.retryPolicy);
      if (clock.now() + wait >= at.giveUpAt) {
        throw new LostCreateReplyError(
          `creating app "${app.name}": ${said(err)}. No new app named "${app.name}" appeared, ` +
            "so the create did not take effect, and the create's time budget " +
            "(setupTimeoutSeconds) is spent: run `pulumi up` again",
          [],
          err,
        );
      }
      reportProgress(
        `app "${app.name}": the create failed (${said(err)}) and the app list shows it made ` +
          "no app: sending it again",
      );
      await clock.sleep(wait);
    }
  }
}

/** For a name the program chose, which other stacks may use too: the app must not be theirs. */
const notOthers = (at: Attempt) =>
  isGeneratedName(at.app.name, at.app.urn)
    ? ""
    : " and no other stack or program of this account made one of that name at that moment";

/** What failed, without the client's advice (to list the apps: this module does that). */
const said = (lost: HostingError) => lost.lostReply?.failure ?? lost.message;

/**
 * A 409 for a subdomain held by an app of this account: the error names that app, since it is
 * often one left by an interrupted deployment.
 */
function namingHolder(err: unknown, app: NewApp, listed: AppSummary[]): unknown {
  if (!(err instanceof ConflictError) || app.subdomain === undefined) return err;
  const holder = listed.find((a) => a.subdomain === app.subdomain);
  if (!holder) return err;
  const held =
    `subdomain "${app.subdomain}" is held by app ${holder.id} ("${holder.name}", created ` +
    `${holder.created_at ?? "at an unknown time"}) of this account`;
  // Only an app of this App's own generated name is provably this App's (left-over.ts).
  const hint = isGeneratedName(holder.name ?? "", app.urn)
    ? `${held}, which carries this App's own generated name: an earlier create of this App ` +
      `made it; set adoptId: "${holder.id}" on it to take it back, or delete that app`
    : `${held}; another stack or program may hold it: pin another subdomain, or delete that ` +
      "app if nothing holds it";
  return makeApiError("createApp", { ...err, property: "subdomain", hint });
}

/**
 * Deletes the app this create just made beside apps of this App's own generated name that nobody
 * holds (a service that ignored the key of an interrupted create), and says which. If the
 * delete fails, the new app is kept in the stack instead: never left behind.
 */
async function refuseBesideLeftovers(
  at: Attempt,
  id: string,
  leftovers: AppSummary[],
): Promise<never> {
  const refusal = leftOverError(at.app.name, leftovers);
  try {
    await at.client.deleteApp(id);
    forgetApps(at.client);
  } catch (err) {
    throw new AppMadeError(
      `${refusal.message} (The app this create made, ${id}, could not be deleted again: it is ` +
        "kept in the stack; destroy it, or remove it with `pulumi state delete`, once you chose.)",
      id,
      err,
    );
  }
  reportProgress(`app "${at.app.name}": deleted ${id} again, made beside an earlier app`);
  throw refusal;
}

/**
 * An app list requested at or after `since` (default: now). Without it nothing can be known, and
 * failing here is the one outcome that may leave an app outside the stack: transient failures are
 * asked again, for a list newer than the one that failed, while the create's budget lasts.
 */
async function listPatiently(client: HostingClient, giveUpAt: number, since?: number) {
  for (let from = since ?? clock.now(); ; from = clock.now()) {
    try {
      return await listAppsSince(client, from);
    } catch (err) {
      const again = isTransientError(err, client.retryPolicy);
      if (!again || clock.now() + SECOND_LOOK_MS >= giveUpAt) throw err;
      await clock.sleep(SECOND_LOOK_MS);
    }
  }
}

/** The app a POST whose reply was lost made, or undefined when the list proves it made none. */
async function recover(
  at: Attempt,
  isNew: (a: AppSummary) => boolean,
  lost: HostingError,
): Promise<string | undefined> {
  const name = at.app.name;
  const what = `creating app "${name}": ${said(lost)}`;
  for (let look = 0; ; look++) {
    let fresh: string[];
    try {
      const after = await listPatiently(at.client, at.giveUpAt);
      fresh = after.filter((e) => isNew(e.app)).map((e) => e.app.id);
    } catch (listErr) {
      throw new LostCreateReplyError(
        `${what}. The reply was lost, and the app list could not be read to tell whether the app ` +
          `was made (${listErr instanceof Error ? listErr.message : String(listErr)}). Before ` +
          `running \`pulumi up\` again, list your apps (getApps() or the dashboard): if an app ` +
          `named "${name}" was created at ${at.sentAt.toISOString()} or later${notOthers(at)}, ` +
          "set adoptId to its id on this App; if none was, just run `pulumi up` again.",
        [],
        lost,
      );
    }
    if (fresh.length === 1) return fresh[0];
    if (fresh.length > 1) {
      throw new LostCreateReplyError(
        `${what}. The reply was lost and ${fresh.length} new apps named "${name}" appeared ` +
          `(${fresh.join(", ")}); none is adopted, since any of them may belong to another ` +
          "stack or program using this account. Set adoptId on this App to the one that is " +
          "yours (one no other stack holds), delete those that are nobody's, and run " +
          "`pulumi up` again.",
        fresh,
        lost,
      );
    }
    if (look > 0) return undefined;
    // A gateway may answer before the service has finished: give it a moment, then look again.
    await clock.sleep(SECOND_LOOK_MS);
  }
}
