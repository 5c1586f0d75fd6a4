import { type HostingClient, type AttachDomainResponse, ConflictError } from "../../api/wire";
import { findApp, forgetApps } from "../app-directory";
import { declaredState, fieldLists, outputsFrom } from "../fields";
import { pollUntil } from "../poll";
import {
  ignoreNotFound,
  inputsFrom,
  updatedOutputs,
  waitKept,
  type Props,
  type ResourceHandler,
} from "../resource-handler";
import { ResourceInitError } from "../errors";
import { dnsRecordsOf } from "./dns-records";
import { ONE_DOMAIN_PER_APP } from "./one-per-app";
import { customDomainFields } from "./fields";
import { customDomainInputSchema, type CustomDomainInputs } from "./schema";

const DEFAULT_ACTIVE_TIMEOUT_S = customDomainFields.activeTimeoutSeconds.default;
const POLL_MS = 1000;

/** The inputs plus the reply's declared fields (customDomainFields); nothing else is read. */
function outputsOf(inputs: CustomDomainInputs, res: AttachDomainResponse): Props {
  const out = outputsFrom(customDomainFields, res);
  return {
    ...declaredState(customDomainFields, inputs),
    ...out,
    ssl: out.ssl ?? {},
    ownershipVerification: out.ownershipVerification ?? {},
    message: out.message ?? "",
    dnsRecords: dnsRecordsOf(inputs.domain, res),
  };
}

/** Whether the app still carries this resource's domain (the only state the API shows). */
/** Whether the domain is still on its app; "no app" when this account finds no such app. */
async function stillAttached(
  client: HostingClient,
  props: CustomDomainInputs,
): Promise<boolean | "no app"> {
  const app = await findApp(client, props.appId);
  if (!app) return "no app";
  return (app.custom_domain ?? "").toLowerCase() === props.domain;
}

/*
 * The spec has no read endpoint for a custom hostname. Attaching the same domain again answers
 * with its current state (an assumption, see the README), which is how waitForActive polls.
 */
async function attach(client: HostingClient, i: CustomDomainInputs) {
  const res = await client.attachCustomDomain(i.appId, i.domain);
  forgetApps(client);
  return res;
}

/**
 * With `waitForActive`, waits until the hostname is active. Any failure (a timeout, a failed
 * look) is thrown as "created but failed to initialise", carrying the id: the domain is attached,
 * so it stays in the stack, and the next `pulumi up` (an update) waits again.
 */
async function settle(
  client: HostingClient,
  id: string,
  i: CustomDomainInputs,
  attached: AttachDomainResponse,
): Promise<Props> {
  if (!i.waitForActive) return outputsOf(i, attached);
  const timeoutS = i.activeTimeoutSeconds ?? DEFAULT_ACTIVE_TIMEOUT_S;
  const active = (r: AttachDomainResponse) => r.custom_hostname.status === "active";
  const what = `custom domain ${i.domain} on app ${i.appId}: activation`;
  const res = await waitKept(
    () => pollUntil(attached, () => attach(client, i), active, timeoutS, POLL_MS, what),
    `custom domain ${i.domain} is attached but waiting for it to be active failed`,
    id,
    outputsOf(i, attached),
  );
  if (!active(res)) {
    throw new ResourceInitError(
      `custom domain ${i.domain} is attached but still ${res.custom_hostname.status} after ${timeoutS} s; ` +
        "create the records in dnsRecords, then run `pulumi up` again",
      id,
      outputsOf(i, res),
      ["custom hostname not active"],
    );
  }
  return outputsOf(i, res);
}

/** A 409 on attaching: the app has another domain, or the domain is on another app. */
function oneDomainHint(err: unknown): unknown {
  if (!(err instanceof ConflictError)) return err;
  const before = err.message;
  err.message = `${before}; ${ONE_DOMAIN_PER_APP}; to move a domain, remove it from the other app first`;
  if (err.stack) err.stack = err.stack.replace(before, () => err.message);
  return err;
}

export const customDomainHandler: ResourceHandler<typeof customDomainInputSchema> = {
  schema: customDomainInputSchema,
  replaceOnChange: fieldLists(customDomainFields).replaceOnChange,
  documentedDefaults: fieldLists(customDomainFields).documentedDefaults,
  // One custom domain per app, and a domain on one app at a time: remove before re-adding.
  deleteBeforeReplace: () => true,

  async create(client, i) {
    const res = await attach(client, i).catch((err: unknown) => Promise.reject(oneDomainHint(err)));
    const id = res.custom_hostname.id;
    return { id, outs: await settle(client, id, i, res) };
  },

  // Only a hostname not yet seen active is waited for (waitForActive just turned on, or the
  // resource was kept after a failed wait); every other change is only recorded.
  async update(client, id, olds, news) {
    if (!news.waitForActive || olds.status === "active") {
      return updatedOutputs(customDomainHandler, olds, news);
    }
    return settle(client, id, news, await attach(client, news));
  },

  async read(client, _id, props) {
    if ((await stillAttached(client, props)) !== true) return undefined;
    return { props, inputs: inputsFrom(customDomainInputSchema, props) };
  },

  async delete(client, _id, props) {
    // Only remove the domain if it is still ours: someone may have attached another since.
    const attached = await stillAttached(client, props);
    if (attached !== true) return attached === "no app" ? "gone" : undefined;
    const gone = await ignoreNotFound(client.removeCustomDomain(props.appId));
    forgetApps(client);
    return gone;
  },
};
