import { z } from "zod";
import { isAnalyticsOff } from "../api/analytics-off";
import { HostingInputError } from "../api/errors";
import { assertType, type SameShape } from "../api/type-equality";
import type { AppListEntry } from "../api/types";
import { camelize } from "../shared/camel";
import { idInput } from "../shared/input-rules";
import { parseArgs } from "../shared/validate";
import type { GetAppArgs, GetAppDeploymentsArgs, GetAppsArgs, GetAppWindowArgs } from "./apps";
import type { HostingClient } from "../api/client";
import { apiCall, mockedList } from "./api-call";
import { accountArg } from "./connection";
import { byIdArgs } from "./by-id-args";
import { pickOne } from "./pick-one";
import type { AppDashboard, AppInfo, AppMetrics, DeploymentInfo } from "./results";

/* What the app data sources do, loaded on their first call (see load-calls.ts). */

const toInfo = (e: AppListEntry): AppInfo => ({
  ...camelize(e.app),
  ...(e.project_info ? { projectInfo: camelize(e.project_info) } : {}),
});

const listArgs = z.strictObject({ ...accountArg });

const oneArgs = byIdArgs(accountArg);
assertType<SameShape<z.input<typeof oneArgs>, GetAppArgs>>(true);

const appIdArgs = z.strictObject({ appId: idInput("appId", "pass app.id"), ...accountArg });
const windowArgs = appIdArgs.extend({
  minutes: z
    .number({ error: "minutes is required: the window in whole minutes" })
    .int("minutes must be a whole number")
    .min(1, "minutes must be at least 1"),
});
assertType<SameShape<z.input<typeof appIdArgs>, GetAppDeploymentsArgs>>(true);
assertType<SameShape<z.input<typeof windowArgs>, GetAppWindowArgs>>(true);

const listApps = async (c: HostingClient) => (await c.listApps()).map(toInfo);

export async function getApps(args: GetAppsArgs): Promise<AppInfo[]> {
  const a = parseArgs("getApps", listArgs, args);
  return apiCall("getApps", a, listApps, mockedList);
}

export async function getApp(args: GetAppArgs): Promise<AppInfo> {
  const a = parseArgs("getApp", oneArgs, args);
  return apiCall("getApp", a, async (c) => pickOne("getApp", "app", await listApps(c), a));
}

export async function getAppDeployments(args: GetAppDeploymentsArgs): Promise<DeploymentInfo[]> {
  const a = parseArgs("getAppDeployments", appIdArgs, args);
  return apiCall(
    "getAppDeployments",
    a,
    async (c) => camelize(await c.listDeployments(a.appId)),
    mockedList,
  );
}

export async function getAppMetrics(args: GetAppWindowArgs): Promise<AppMetrics> {
  const a = parseArgs("getAppMetrics", windowArgs, args);
  return apiCall("getAppMetrics", a, async (c) =>
    camelize(await c.getAppMetrics(a.appId, { minutes: a.minutes })),
  );
}

export async function getAppDashboard(args: GetAppWindowArgs): Promise<AppDashboard> {
  const a = parseArgs("getAppDashboard", windowArgs, args);
  try {
    return await apiCall("getAppDashboard", a, async (c) =>
      camelize(await c.getDashboardData(a.appId, { minutes: a.minutes })),
    );
  } catch (err) {
    if (isAnalyticsOff(err)) {
      throw new HostingInputError(
        "appId",
        `getAppDashboard: the service refused (${err.bodyMessage}). Analytics must be on: add ` +
          `new hosting.AppAnalytics("analytics", { appId, enabled: true }) and depend on it.`,
      );
    }
    throw err;
  }
}
