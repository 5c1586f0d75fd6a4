import { rmSync } from "node:fs";
import { dirname } from "node:path";
import { type HostingClient, HostingInputError, type AppSummary } from "../../api/wire";
import type { Manifest } from "./manifest";
import { findApp, forgetApps, listAppsSince } from "../app-directory";
import { withKeyLock } from "../keyed-lock";
import { URN_INPUT } from "../urn-input";
import { clock } from "../clock";
import { assertType, type Covers } from "../../base";
import { declaredState, fieldLists, outputsFrom, wireOf, type FromKeys } from "../fields";
import { pollUntil } from "../poll";
import {
  ignoreNotFound,
  inputsFrom,
  KEPT_TO_WAIT,
  updatedOutputs,
  waitKept,
  type Props,
  type ResourceHandler,
  type StateOf,
} from "../resource-handler";
import { AppMadeError, ResourceInitError } from "../errors";
import { createApp, FIRST_LOOK_MS } from "./create-app";
import { newestDeployError } from "./deploy-error";
import { withName } from "./auto-name";
import { appFields } from "./fields";
import { heldFate, noteHeld } from "./held-apps";
import { legacyArchiveHash, packageSource, type PackagedSource } from "./packaging";
import { contentHash, contentHashV1, hashSourceFiles } from "./source-hash";
import type { SourceListing } from "./source-files";
import { refuseMissingEntrypoint } from "./entrypoint";
import { appInputSchema, DEFAULT_SETUP_TIMEOUT_S, type AppInputs } from "./schema";

const POLL_MS = 500;

/** The manifest from the declaration's `wire` keys: a declared setting cannot be left out. */
export function manifestOf(i: AppInputs): Manifest {
  return wireOf(appFields, i) as Manifest;
}

/*
 * Packing is CPU work on the provider's one thread (zip, deflate, hashing). Hundreds of creates
 * packing at once all finish late, together, and slow every reply the thread reads meanwhile;
 * a few at a time hand the first archives to their uploads at once and the rest in order.
 */
const PACK_SLOTS = 4;

/**
 * Packs the source into a temp folder, hands it to `use`, and removes it. Nothing is kept between
 * check and create: the provider host is killed at the end of a deployment, so anything kept
 * would stay in the temp folder. Packing is deterministic, so create re-packs and compares.
 */
async function withPackage<T>(
  inputs: AppInputs,
  use: (p: PackagedSource) => Promise<T>,
): Promise<T> {
  const pack = () => packageSource(inputs.source, manifestOf(inputs));
  const p = await withKeyLock("packing", pack, PACK_SLOTS);
  try {
    return await use(p);
  } finally {
    // A temp folder left behind must not fail a create whose app already exists (its id would
    // be lost with the error). Removed without the thread pool (an archive and its folder): an
    // awaited removal queued there behind other creates' packing held each create's answer by
    // milliseconds, and the engine starts the next create only when one of a few running ends.
    try {
      rmSync(dirname(p.zipPath), { recursive: true, force: true });
    } catch {
      // left for the sweep of stale archive folders (temp-archives.ts)
    }
  }
}

/**
 * Outputs: the declared inputs and the hash as held, and the documented summary fields mapped by
 * name (appFields). No other field of the reply is read: a server cannot overwrite an input,
 * `account` or the hash, and nothing unknown is walked.
 */
function outputsOf(inputs: Props, app: AppSummary): Props {
  return Object.assign(declaredState(appFields, inputs), outputsFrom(appFields, app));
}

// Every field read from the summary (`from`) is one the wire type lists.
assertType<
  Covers<AppSummary, Record<FromKeys<typeof appFields>, unknown>, "AppSummary (src/api/types.ts)">
>(true);

const lists = fieldLists(appFields);

type AppSchema = typeof appInputSchema;

/** Old-style sourceHash (zip bytes) → content hash, for sources seen unchanged in this check. */
const rehashed = new Map<string, string>();

/**
 * The content hash, read and hashed without packing; an entrypoint the source does not upload is
 * refused. A state of 0.1.0 holds the same content's hash in format v1: that hash is kept, so an
 * unchanged source shows no change. Only an old sourceHash that differs from both may be the
 * zip-bytes hash of a build before the content hash: that check alone packs (to a hash, not to
 * disk) to find out, once per process.
 */
async function checkedHash(inputs: AppInputs, olds: Props): Promise<string> {
  const manifest = manifestOf(inputs);
  // The entrypoint is judged from the listing being hashed: no second walk.
  const vet = (l: SourceListing) => refuseMissingEntrypoint(inputs.entrypoint, inputs.source, l);
  const files = await withKeyLock(
    "packing",
    () => hashSourceFiles(inputs.source, manifest, vet),
    PACK_SLOTS,
  );
  const sha256 = contentHash(files);
  const old = olds.sourceHash;
  if (typeof old === "string" && old !== sha256 && old === contentHashV1(files)) return old;
  if (typeof old === "string" && old !== sha256 && !rehashed.has(old)) {
    const legacy = () => legacyArchiveHash(inputs.source, manifest);
    if ((await withKeyLock("packing", legacy, PACK_SLOTS)) === old) rehashed.set(old, sha256);
  }
  return sha256;
}

export const appHandler: ResourceHandler<AppSchema> = {
  schema: appInputSchema,
  // Derived from appFields: no endpoint changes an app's settings, so each of them replaces it.
  replaceOnChange: lists.replaceOnChange,
  notCompared: lists.notCompared,
  platformDefaults: lists.platformDefaults,
  documentedDefaults: lists.documentedDefaults,
  computed: lists.computed,
  // The source and every setting of the manifest: the hash cannot be known without them.
  prepareReads: ["source", ...lists.wired],
  // Without `name`, the App is named after its resource (auto-name.ts).
  fillIn: withName,
  // A fixed subdomain cannot be held by the old and the new app at once.
  deleteBeforeReplace: (news) => typeof news.subdomain === "string",

  // Adopted or not, the source is hashed: after adoption, the program is the truth.
  async prepare(inputs, olds) {
    return { ...inputs, sourceHash: await checkedHash(inputs, olds) };
  },

  // A stack made by a build that hashed the zip bytes: same bytes, so same content, new hash. An
  // app taken in by `pulumi import` has no hash (the service cannot show its source): the
  // program's is recorded in place, since the app already runs what the program holds.
  equivalent: (key, old, next) =>
    key === "sourceHash" &&
    typeof next === "string" &&
    (old === undefined || (typeof old === "string" && rehashed.get(old) === next)),

  diffed(id, _olds, replaces) {
    noteHeld(id, replaces.length > 0 ? "replaced" : "kept");
  },

  async create(client, inputs) {
    const began = clock.now();
    const fate = inputs.adoptId === undefined ? undefined : heldFate(inputs.adoptId);
    if (inputs.adoptId !== undefined && (fate === "kept" || fate === "adopted")) {
      throw new HostingInputError(
        "adoptId",
        `adoptId: app ${inputs.adoptId} is already held by another resource of this stack; ` +
          "two resources must not manage one app: remove adoptId from one of them",
      );
    }
    // A replacement of the App that adopted this id creates a new app (see held-apps.ts).
    if (inputs.adoptId !== undefined && fate !== "replaced") return adopt(client, inputs);
    // The "before" list createApp needs (one requested since the create began) is asked for now,
    // while the source is packed; createApp joins it. A failed one is asked again there.
    listAppsSince(client, began).catch(() => undefined);
    const { created, sourceHash } = await withPackage(inputs, async (p) => {
      const said = inputs.sourceHash;
      if (said !== undefined && p.sha256 !== said && p.sha256V1 !== said) {
        throw new HostingInputError(
          "source",
          "source changed between preview and create; run the update again",
        );
      }
      // Keep the hash check recorded (either format), so the next check compares like with like.
      const sourceHash = said ?? p.sha256;
      const made = { ...inputs, sourceHash, urn: urnOf(inputs), began };
      try {
        return { created: await createApp(client, made, p.zipPath), sourceHash };
      } catch (err) {
        // The service returned an app id: keep the app in the stack whatever failed afterwards.
        if (!(err instanceof AppMadeError)) throw err;
        const outs = { ...inputs, sourceHash };
        const cause = err.cause instanceof Error ? err.cause : err;
        throw new ResourceInitError(err.message, err.appId, outs, [cause.message], cause);
      }
    });
    // From here on the app exists: every failure keeps it in the stack.
    const { id, answeredAt } = created;
    return { id, outs: await settle(client, id, { ...inputs, sourceHash }, answeredAt) };
  },

  async read(client, id, props) {
    const app = await findApp(client, id);
    if (!app) return undefined;
    const next = outputsOf(props, app);
    const inputs = inputsFrom(appInputSchema, props);
    for (const key of lists.live) {
      // Only settings the user set are compared; the platform's defaults are not drift.
      if (props[key] !== undefined && next[key] !== undefined) inputs[key] = next[key];
    }
    return { props: next, inputs };
  },

  // Only settings that do not touch the app change in place. An app kept in the stack before its
  // setup finished (a timeout, a failed wait) is waited for again.
  async update(client, id, olds, news) {
    const outs = updatedOutputs(appHandler, olds, news) as StateOf<AppSchema>;
    return olds.setup === true ? outs : settle(client, id, outs, clock.now());
  },

  async delete(client, id) {
    if (heldFate(id) === "adopted") {
      console.log(`app ${id} is now held by another App of this stack (adoptId): not deleting it`);
      return;
    }
    const gone = await ignoreNotFound(client.deleteApp(id));
    forgetApps(client);
    return gone;
  },
};

/** The resource's URN as the program sent it (see {@link URN_INPUT}). */
function urnOf(inputs: AppInputs): string | undefined {
  const urn = (inputs as Props)[URN_INPUT];
  return typeof urn === "string" ? urn : undefined;
}

/** Takes over an existing app; its live settings go into the outputs, so a difference shows. */
async function adopt(client: HostingClient, inputs: AppInputs) {
  const id = inputs.adoptId ?? "";
  const app = (await listAppsSince(client, clock.now())).find((a) => a.app.id === id)?.app;
  if (!app) {
    throw new HostingInputError("adoptId", `adoptId: no app ${id} exists for this token`);
  }
  noteHeld(app.id, "adopted");
  return { id: app.id, outs: outputsOf(inputs, app) };
}

/**
 * Waits for the app's setup. Any failure (a timeout, a list call that keeps failing) is thrown as
 * "created but failed to initialise", carrying the id, so the app stays in the stack.
 */
async function settle(
  client: HostingClient,
  id: string,
  outs: StateOf<AppSchema>,
  existsSince: number,
): Promise<Props> {
  const timeoutS = outs.setupTimeoutSeconds ?? DEFAULT_SETUP_TIMEOUT_S;
  const app = await waitKept(
    () => waitForSetup(client, id, timeoutS, existsSince, `app "${outs.name}" (${id}): setup`),
    `app ${id} was created but waiting for its setup failed`,
    id,
    outs,
  );
  if (!app.setup) {
    const failed = await newestDeployError(client, id);
    const said = failed
      ? `; its newest deployment failed: "${failed}": fix that in the source and run \`pulumi up\` (a changed source replaces the app)`
      : "";
    throw new ResourceInitError(
      `app ${id} was created but its setup did not finish within ${timeoutS} s${said}; ` +
        `${KEPT_TO_WAIT}, or raise setupTimeoutSeconds`,
      id,
      outputsOf(outs, app),
      failed
        ? ["setup did not complete", `deployment error: ${failed}`]
        : ["setup did not complete"],
    );
  }
  return outputsOf(outs, app);
}

/**
 * Polls the shared list until setup is done. Each look takes a list requested since `existsSince`
 * (a new app's POST answer; for an app kept from before, when this wait began) and at most one
 * interval old, so N apps waiting at once share one call per interval.
 */
async function waitForSetup(
  client: HostingClient,
  id: string,
  timeoutS: number,
  existsSince: number,
  what: string,
): Promise<AppSummary> {
  const lookSince = async (since: number) => {
    const app = (await listAppsSince(client, since)).find((a) => a.app.id === id)?.app;
    if (!app) throw new Error(`app ${id} disappeared while waiting for its setup`);
    return app;
  };
  const look = () => lookSince(Math.max(existsSince, clock.now() - POLL_MS));
  // The first look is a list requested FIRST_LOOK_MS after that (for a new app, the one its
  // create verified with). Creates answered close together share it; an older list (say, one
  // queued behind other creates' uploads) may predate a setup that is done by now, and would
  // cost a whole interval more.
  const firstAt = existsSince + FIRST_LOOK_MS;
  if (firstAt > clock.now()) await clock.sleep(firstAt - clock.now());
  const first = await lookSince(firstAt);
  return pollUntil(first, look, (app) => app.setup === true, timeoutS, POLL_MS, what);
}
