import { z } from "zod";
import { isAnalyticsOff } from "../api/analytics-off";
import { HostingInputError } from "../api/errors/input-error";
import type { AppListEntry, DashboardData, Deployment, ProjectInfo } from "../api/schemas";
import { camelize, type Camelize } from "../provider/camel";
import { parseArgs } from "../provider/validate";
import { accountArg, outputVariant, programClient, type AccountOption } from "./connection";
import { pickOne, type ById } from "./pick-one";

export type AppInfo = Camelize<AppListEntry["app"]> & {
  projectInfo?: Camelize<NonNullable<AppListEntry["project_info"]>>;
};
export type DeploymentInfo = Camelize<Deployment>;
export type AppMetrics = Camelize<ProjectInfo>;
export type AppDashboard = Camelize<DashboardData>;

const toInfo = (e: AppListEntry): AppInfo => ({
  ...camelize(e.app),
  ...(e.project_info ? { projectInfo: camelize(e.project_info) } : {}),
});

const listArgs = z.strictObject({ ...accountArg });

/** Every app of the caller. */
export async function getApps(args: AccountOption = {}): Promise<AppInfo[]> {
  const { account } = parseArgs("getApps", listArgs, args);
  return (await programClient(account).listApps()).map(toInfo);
}
export const getAppsOutput = outputVariant((args: AccountOption = {}) => getApps(args));

const oneArgs = z.union(
  [
    z.strictObject({ id: z.string().min(1), ...accountArg }),
    z.strictObject({ name: z.string().min(1), ...accountArg }),
  ],
  {
    error: "pass exactly one of { id } or { name }",
  },
);

/** One app by id or by name. */
export async function getApp(args: ById & AccountOption): Promise<AppInfo> {
  const a = parseArgs("getApp", oneArgs, args);
  return pickOne("getApp", "app", await getApps({ account: a.account }), a);
}
export const getAppOutput = outputVariant(getApp);

const appIdArgs = z.strictObject({ appId: z.string().min(1, "appId is required"), ...accountArg });
const windowArgs = appIdArgs.extend({
  minutes: z
    .number({ error: "minutes is required: the window in whole minutes" })
    .int("minutes must be a whole number")
    .min(1, "minutes must be at least 1"),
});

export async function getAppDeployments(
  args: { appId: string } & AccountOption,
): Promise<DeploymentInfo[]> {
  const a = parseArgs("getAppDeployments", appIdArgs, args);
  return camelize(await programClient(a.account).listDeployments(a.appId));
}
export const getAppDeploymentsOutput = outputVariant(getAppDeployments);

/** RAM, CPU and network usage over the last `minutes`. */
export async function getAppMetrics(
  args: { appId: string; minutes: number } & AccountOption,
): Promise<AppMetrics> {
  const a = parseArgs("getAppMetrics", windowArgs, args);
  return camelize(await programClient(a.account).getAppMetrics(a.appId, { minutes: a.minutes }));
}
export const getAppMetricsOutput = outputVariant(getAppMetrics);

/** Traffic analytics over the last `minutes`; analytics must be on (see AppAnalytics). */
export async function getAppDashboard(
  args: { appId: string; minutes: number } & AccountOption,
): Promise<AppDashboard> {
  const a = parseArgs("getAppDashboard", windowArgs, args);
  try {
    return camelize(
      await programClient(a.account).getDashboardData(a.appId, { minutes: a.minutes }),
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
export const getAppDashboardOutput = outputVariant(getAppDashboard);
