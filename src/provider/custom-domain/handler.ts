import type { HostingClient } from "../../api/client";
import type { AttachDomainResponse } from "../../api/types";
import { findApp, forgetApps } from "../app-directory";
import { camelize } from "../camel";
import { pollUntil } from "../poll";
import {
  ignoreNotFound,
  inputsFrom,
  ResourceInitError,
  type Props,
  type ResourceHandler,
} from "../resource-handler";
import { dnsRecordsOf } from "./dns-records";
import { customDomainInputSchema, type CustomDomainInputs } from "./schema";

const DEFAULT_ACTIVE_TIMEOUT_S = 900;
const POLL_MS = 1000;

function outputsOf(inputs: CustomDomainInputs, res: AttachDomainResponse): Props {
  const domain = inputs.domain;
  const h = res.custom_hostname;
  return {
    ...inputs,
    hostname: h.hostname,
    status: h.status,
    ssl: camelize(h.ssl ?? {}),
    ownershipVerification: camelize(h.ownership_verification ?? {}),
    cname: res.cname,
    message: res.message ?? "",
    dnsRecords: dnsRecordsOf(domain, res),
  };
}

/** Whether the app still carries this resource's domain (the only state the API shows). */
async function stillAttached(client: HostingClient, props: CustomDomainInputs): Promise<boolean> {
  const app = await findApp(client, props.appId);
  return (app?.custom_domain ?? "").toLowerCase() === props.domain;
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

export const customDomainHandler: ResourceHandler<typeof customDomainInputSchema> = {
  schema: customDomainInputSchema,
  replaceOnChange: ["appId", "domain"],
  // One custom domain per app, and a domain on one app at a time: remove before re-adding.
  deleteBeforeReplace: () => true,

  async create(client, i) {
    let res = await attach(client, i);
    const id = res.custom_hostname.id;
    if (i.waitForActive) {
      const timeoutS = i.activeTimeoutSeconds ?? DEFAULT_ACTIVE_TIMEOUT_S;
      const active = (r: AttachDomainResponse) => r.custom_hostname.status === "active";
      const what = `custom domain ${i.domain} on app ${i.appId}: activation`;
      const attached = res;
      try {
        res = await pollUntil(res, () => attach(client, i), active, timeoutS, POLL_MS, what);
      } catch (err) {
        // The domain is attached: a failed look must not drop it from the stack.
        const why = err instanceof Error ? err.message : String(err);
        throw new ResourceInitError(
          `custom domain ${i.domain} is attached but waiting for it to be active failed (${why}); ` +
            "it is kept in the stack: run `pulumi up` again to wait more",
          id,
          outputsOf(i, attached),
          [why],
        );
      }
      if (!active(res)) {
        throw new ResourceInitError(
          `custom domain ${i.domain} is attached but still ${res.custom_hostname.status} after ${timeoutS} s; ` +
            "create the records in dnsRecords, then run `pulumi up` again",
          id,
          outputsOf(i, res),
          ["custom hostname not active"],
        );
      }
    }
    return { id, outs: outputsOf(i, res) };
  },

  async read(client, _id, props) {
    if (!(await stillAttached(client, props))) return undefined;
    return { props, inputs: inputsFrom(customDomainInputSchema, props) };
  },

  async delete(client, _id, props) {
    // Only remove the domain if it is still ours: someone may have attached another since.
    if (!(await stillAttached(client, props))) return;
    await ignoreNotFound(client.removeCustomDomain(props.appId));
    forgetApps(client);
  },
};
