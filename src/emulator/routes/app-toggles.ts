import { endpoints, type EndpointName } from "../../api/wire";
import { bodyValue, owned, type Handler } from "../context";
import { EmulatorReplyError } from "../errors";

/* An app's on/off switches: public web access and traffic analytics. */

const setWeb =
  (enabled: boolean): Handler =>
  (emu, { user, params }) => {
    const app = owned(emu.world.apps, params.app_id, user, "app");
    app.web_enabled = enabled;
    return { message: enabled ? "web access enabled" : "web access disabled" };
  };

const setAnalytics: Handler = (emu, call) => {
  const app = owned(emu.world.apps, call.params.app_id, call.user, "app");
  const enabled = bodyValue("setAnalytics", "enabled", call);
  if (typeof enabled !== "boolean") {
    const name = endpoints.setAnalytics.body.enabled;
    throw new EmulatorReplyError(400, `body must be { ${name}: boolean }`);
  }
  app.analytics_enabled = enabled;
  return { message: enabled ? "analytics enabled" : "analytics disabled" };
};

export const toggleRoutes: Partial<Record<EndpointName, Handler>> = {
  disableWebAccess: setWeb(false),
  enableWebAccess: setWeb(true),
  setAnalytics,
};
