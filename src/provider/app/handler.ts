import { rm } from "node:fs/promises";
import { dirname } from "node:path";
import type { HostingClient } from "../../api/client";
import { HostingApiError } from "../../api/errors/api-error";
import { HostingConnectionError } from "../../api/errors/connection-error";
import { HostingInputError } from "../../api/errors/input-error";
import type { Manifest } from "../../api/manifest";
import type { AppSummary } from "../../api/schemas";
import { findApp, forgetApps, listAppsShared } from "../app-directory";
import { camelize } from "../camel";
import { pollUntil } from "../poll";
import {
  ignoreNotFound,
  inputsFrom,
  ResourceInitError,
  type Props,
  type ResourceHandler,
} from "../resource-handler";
import { packageSource, type PackagedSource } from "./packaging";
import { appInputSchema, type AppInputs } from "./schema";

const DEFAULT_SETUP_TIMEOUT_S = 300;
const POLL_MS = 500;

function manifestOf(i: AppInputs): Manifest {
  const m: Manifest = { name: i.name };
  if (i.ram !== undefined) m.ram = i.ram;
  if (i.vcpu !== undefined) m.vcpu = i.vcpu;
  if (i.entrypoint !== undefined) m.entrypoint = i.entrypoint;
  if (i.subdomain !== undefined) m.subdomain = i.subdomain;
  if (i.description !== undefined) m.description = i.description;
  if (i.customCommand !== undefined) m.custom_command = i.customCommand;
  if (i.runtime !== undefined) m.runtime = i.runtime;
  return m;
}

/**
 * Packs the source into a temp folder, hands it to `use`, and removes it. Nothing is kept between
 * check and create: the provider host is killed at the end of a deployment, so anything kept
 * would stay in the temp folder. Packing is deterministic, so create re-packs and compares.
 */
async function withPackage<T>(
  inputs: AppInputs,
  use: (p: PackagedSource) => Promise<T>,
): Promise<T> {
  const p = await packageSource(inputs.source, manifestOf(inputs));
  try {
    return await use(p);
  } finally {
    await rm(dirname(p.zipPath), { recursive: true, force: true });
  }
}

/** Outputs: the inputs, the hash, and every App summary field camelCased. */
function outputsOf(inputs: Props, app: AppSummary): Props {
  const { id: _id, ...rest } = camelize(app);
  return { ...inputs, ...rest };
}

/** Settings the API reports back, so a refresh can bring drift into the inputs. */
const LIVE_SETTINGS = [
  "name",
  "ram",
  "vcpu",
  "entrypoint",
  "subdomain",
  "description",
  "customCommand",
] as const;

export const appHandler: ResourceHandler = {
  schema: appInputSchema,
  // No endpoint changes an app's settings: every one of them replaces it.
  replaceOnChange: ["sourceHash", "env", ...LIVE_SETTINGS, "runtime", "adoptId"],
  notCompared: ["source"],
  platformDefaults: LIVE_SETTINGS.filter((k) => k !== "name"),
  // A fixed subdomain cannot be held by the old and the new app at once.
  deleteBeforeReplace: (news) => typeof news.subdomain === "string",

  async prepare(inputs) {
    const i = inputs as AppInputs;
    if (i.adoptId) return inputs;
    const sourceHash = await withPackage(i, async (p) => p.sha256);
    return { ...inputs, sourceHash };
  },

  async create(client, inputs) {
    const i = inputs as AppInputs;
    if (i.adoptId) {
      const app = await findApp(client, i.adoptId);
      if (!app) {
        throw new HostingInputError(
          "adoptId",
          `adoptId: no app ${i.adoptId} exists for this token`,
        );
      }
      return { id: app.id, outs: outputsOf(inputs, app) };
    }
    const { id, sourceHash } = await withPackage(i, async (p) => {
      if (i.sourceHash && p.sha256 !== i.sourceHash) {
        throw new HostingInputError(
          "source",
          "source changed between preview and create; run the update again",
        );
      }
      return { id: await createOnce(client, i, p), sourceHash: p.sha256 };
    });
    const outsBase = { ...inputs, sourceHash };
    forgetApps(client);
    const app = await waitForSetup(
      client,
      id,
      i.setupTimeoutSeconds ?? DEFAULT_SETUP_TIMEOUT_S,
      `app "${i.name}" (${id}): setup`,
    );
    if (!app.setup) {
      throw new ResourceInitError(
        `app ${id} was created but its setup did not finish within ${i.setupTimeoutSeconds ?? DEFAULT_SETUP_TIMEOUT_S} s; ` +
          "it is kept in the stack: run `pulumi up` again to wait more, or raise setupTimeoutSeconds",
        id,
        outputsOf(outsBase, app),
        ["setup did not complete"],
      );
    }
    return { id, outs: outputsOf(outsBase, app) };
  },

  async read(client, id, props) {
    const app = await findApp(client, id);
    if (!app) return undefined;
    const next = outputsOf(props, app);
    const inputs = inputsFrom(appInputSchema, props);
    for (const key of LIVE_SETTINGS) {
      // Only settings the user set are compared; the platform's defaults are not drift.
      if (props[key] !== undefined && next[key] !== undefined) inputs[key] = next[key];
    }
    return { props: next, inputs };
  },

  async delete(client, id) {
    await ignoreNotFound(client.deleteApp(id));
    forgetApps(client);
  },
};

/**
 * POST /apps once. If the response is lost (the connection dropped after sending), the app may
 * exist anyway: look for an app of this name that was not there before, and adopt it rather than
 * create a duplicate.
 */
async function createOnce(client: HostingClient, i: AppInputs, p: PackagedSource): Promise<string> {
  // The shared list (at most a second old) is "before" enough, and parallel creates share it.
  const before = new Set(
    (await listAppsShared(client)).filter((a) => a.app.name === i.name).map((a) => a.app.id),
  );
  try {
    return (await client.createApp({ archivePath: p.zipPath, env: i.env ?? {} })).id;
  } catch (err) {
    if (HostingApiError.isInstance(err) || !HostingConnectionError.isInstance(err)) throw err;
    forgetApps(client);
    const fresh = (await listAppsShared(client)).filter(
      (a) => a.app.name === i.name && !before.has(a.app.id),
    );
    if (fresh.length === 1) return fresh[0].app.id;
    if (fresh.length > 1) {
      throw new Error(
        `the reply to creating app "${i.name}" was lost and ${fresh.length} new apps of that name now exist ` +
          `(${fresh.map((a) => a.app.id).join(", ")}); adopt one with adoptId and delete the others`,
        { cause: err },
      );
    }
    throw err;
  }
}

async function waitForSetup(
  client: HostingClient,
  id: string,
  timeoutS: number,
  what: string,
): Promise<AppSummary> {
  const look = async () => {
    const app = await findApp(client, id);
    if (!app) throw new Error(`app ${id} disappeared while waiting for its setup`);
    return app;
  };
  // The shared list is at most a second old, so parallel creates poll together.
  return pollUntil(await look(), look, (app) => app.setup === true, timeoutS, POLL_MS, what);
}
