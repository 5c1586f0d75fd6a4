import { endpoints, type EndpointName, HOSTNAME_PATTERN, normalizeHostname } from "../../api/wire";
import { bodyValue, owned, type Emu, type Handler } from "../context";
import { EmulatorReplyError } from "../errors";
import type { AppRecord } from "../world";

/* An app's custom domain: attach (with the DNS records it needs) and remove. */

const EDGE_CNAME_TARGET = "edge.hosting-emulator.test";

function hostnameView(emu: Emu, app: AppRecord) {
  const d = app.domain!;
  const active = emu.opts.now() - d.attached_at >= emu.opts.domainActivationMs;
  return {
    id: d.id,
    hostname: d.hostname,
    status: active ? "active" : "pending",
    ssl: {
      method: "txt",
      type: "dv",
      status: active ? "active" : "pending_validation",
      validation_records: [
        {
          type: "TXT",
          name: `_acme-challenge.${d.hostname}`,
          value: d.ssl_value,
          txt_name: `_acme-challenge.${d.hostname}`,
          txt_value: d.ssl_value,
        },
      ],
    },
    ownership_verification: {
      type: "txt",
      name: `_hosting-verify.${d.hostname}`,
      value: d.ownership_value,
      txt_name: `_hosting-verify.${d.hostname}`,
      txt_value: d.ownership_value,
    },
  };
}

const attachCustomDomain: Handler = (emu, call) => {
  const app = owned(emu.world.apps, call.params.app_id, call.user, "app");
  const raw = bodyValue("attachCustomDomain", "customDomain", call);
  if (typeof raw !== "string" || raw.length === 0) {
    throw new EmulatorReplyError(
      400,
      `${endpoints.attachCustomDomain.body.customDomain} is required`,
    );
  }
  const hostname = normalizeHostname(raw);
  if (!HOSTNAME_PATTERN.test(hostname))
    throw new EmulatorReplyError(400, `${raw} is not a valid hostname`);
  if (app.domain && app.domain.hostname !== hostname) {
    throw new EmulatorReplyError(
      409,
      `app already has custom domain ${app.domain.hostname}; remove it first`,
    );
  }
  if (emu.world.apps.some((a) => a !== app && a.domain?.hostname === hostname)) {
    throw new EmulatorReplyError(409, `${hostname} is already attached to another app`);
  }
  if (!hostname.endsWith(emu.opts.pointedDomainSuffix)) {
    throw new EmulatorReplyError(
      400,
      `${hostname} does not point at the edge: create a CNAME record ${hostname} → ${EDGE_CNAME_TARGET} and try again`,
    );
  }
  app.domain ??= {
    id: emu.rng.uuid(),
    hostname,
    attached_at: emu.opts.now(),
    ownership_value: emu.rng.hex(16),
    ssl_value: emu.rng.hex(20),
  };
  return {
    message: `custom domain ${hostname} attached`,
    custom_hostname: hostnameView(emu, app),
    cname: EDGE_CNAME_TARGET,
  };
};

const removeCustomDomain: Handler = (emu, { user, params }) => {
  const app = owned(emu.world.apps, params.app_id, user, "app");
  if (!app.domain) throw new EmulatorReplyError(404, `app ${app.id} has no custom domain`);
  app.domain = null;
  return { message: "custom domain removed" };
};

export const domainRoutes: Partial<Record<EndpointName, Handler>> = {
  attachCustomDomain,
  removeCustomDomain,
};
