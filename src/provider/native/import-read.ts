import type { HostingClient } from "../../api/wire";
import { findApp, listAppsShared } from "../app-directory";
import { analyticsEnabled } from "../analytics/handler";
import { appFields } from "../app/fields";
import { outputsFrom, type Fields } from "../fields";
import type { ResourceKind } from "../resource-kind";

type Props = Record<string, unknown>;
type Found = { id: string; props: Props; inputs: Props } | undefined;

/*
 * `pulumi import` reads with the id alone (no inputs, no state). Each kind finds its object from
 * the id and reports the inputs a program would have to declare to hold it as it is. Only reads:
 * the engine also reads like this during the import's preview.
 */

/** The App's settings the service reports (each declared `wire` input it reads back). */
function appInputs(app: unknown): Props {
  const outs = outputsFrom(appFields, app);
  const inputs: Props = {};
  for (const [key, f] of Object.entries(appFields as Fields)) {
    const v = outs[key];
    if (f.wire !== undefined && f.from !== undefined && v !== undefined && v !== null && v !== "") {
      inputs[key] = v;
    }
  }
  return inputs;
}

export async function importRead(
  kind: ResourceKind,
  client: HostingClient,
  id: string,
): Promise<Found> {
  switch (kind) {
    case "App": {
      const app = await findApp(client, id);
      if (!app) return undefined;
      const inputs = appInputs(app);
      return { id, props: { ...inputs, ...outputsFrom(appFields, app) }, inputs };
    }
    case "CustomDomain": {
      // By hostname: the app that carries it is the one the domain is attached to.
      const domain = id.toLowerCase();
      const apps = await listAppsShared(client);
      const app = apps.find((a) => (a.app.custom_domain ?? "").toLowerCase() === domain)?.app;
      if (!app) return undefined;
      const inputs = { appId: app.id, domain };
      return { id, props: { ...inputs, hostname: domain }, inputs };
    }
    case "AppAnalytics": {
      if (!(await findApp(client, id))) return undefined;
      const inputs = { appId: id, enabled: await analyticsEnabled(client, id) };
      return { id, props: inputs, inputs };
    }
    case "AppWebAccess": {
      // The API shows no web-access state: `enabled` is left for the program to say.
      if (!(await findApp(client, id))) return undefined;
      return { id, props: { appId: id }, inputs: { appId: id } };
    }
    default:
      // Actions leave nothing on the service to hold.
      return undefined;
  }
}
