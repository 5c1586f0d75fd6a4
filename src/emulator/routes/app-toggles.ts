import type { EndpointName } from "../../api/endpoints";
import { ApiFailure, owned, type Handler } from "../context";

/* An app's on/off switches: public web access and traffic analytics. */

const setWeb =
  (enabled: boolean): Handler =>
  (emu, { user, params }) => {
    const app = owned(emu.world.apps, params.app_id, user, "app");
    app.web_enabled = enabled;
    return { message: enabled ? "web access enabled" : "web access disabled" };
  };

const setAnalytics: Handler = (emu, { user, params, body }) => {
  const app = owned(emu.world.apps, params.app_id, user, "app");
  const enabled = (body as { enabled?: unknown } | undefined)?.enabled;
  if (typeof enabled !== "boolean") throw new ApiFailure(400, "body must be { enabled: boolean }");
  app.analytics_enabled = enabled;
  return { message: enabled ? "analytics enabled" : "analytics disabled" };
};

export const toggleRoutes: Partial<Record<EndpointName, Handler>> = {
  disableWebAccess: setWeb(false),
  enableWebAccess: setWeb(true),
  setAnalytics,
};
