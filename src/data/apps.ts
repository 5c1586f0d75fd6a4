import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { isAnalyticsOff } from "../api/analytics-off";
import { HostingInputError } from "../api/errors/input-error";
import { assertType, type SameShape } from "../api/type-equality";
import type { AppListEntry } from "../api/types";
import { camelize } from "../provider/camel";
import { parseArgs } from "../provider/validate";
import { programClient } from "./connection";
import { checkInvokeOptions, invokeOutput } from "./invoke";
import { pickOne, type ById, type ByIdInput } from "./pick-one";
import type { AppDashboard, AppInfo, AppMetrics, DeploymentInfo } from "./results";

const toInfo = (e: AppListEntry): AppInfo => ({
  ...camelize(e.app),
  ...(e.project_info ? { projectInfo: camelize(e.project_info) } : {}),
});

/** Arguments of {@link getApps}: none so far; the parameter keeps the Pulumi calling shape. */
export type GetAppsArgs = Record<string, never>;

/** Arguments of {@link getAppsOutput}: none so far. */
export type GetAppsOutputArgs = Record<string, never>;

const noArgs = z.strictObject({});

/**
 * Every app of the caller.
 * @example
 * ```ts
 * const names = (await hosting.getApps()).map((a) => a.name);
 * ```
 */
export async function getApps(
  args: GetAppsArgs = {},
  opts?: pulumi.InvokeOptions,
): Promise<AppInfo[]> {
  checkInvokeOptions("getApps", opts);
  parseArgs("getApps", noArgs, args);
  return (await programClient().listApps()).map(toInfo);
}

/** {@link getApps} as an Output. */
export function getAppsOutput(
  args: GetAppsOutputArgs = {},
  opts?: pulumi.InvokeOutputOptions,
): pulumi.Output<AppInfo[]> {
  return invokeOutput(getApps, args, opts);
}

/** Arguments of {@link getApp}: exactly one of `id` or `name`. */
export type GetAppArgs = ById;

/** Arguments of {@link getAppOutput}: {@link GetAppArgs} as Inputs. */
export type GetAppOutputArgs = ByIdInput;

const oneArgs = z.union(
  [z.strictObject({ id: z.string().min(1) }), z.strictObject({ name: z.string().min(1) })],
  { error: "pass exactly one of { id } or { name }" },
);

/**
 * One app by id or by name; a clear error when there is none or several.
 * @example
 * ```ts
 * const web = await hosting.getApp({ name: "web" });
 * ```
 */
export async function getApp(args: GetAppArgs, opts?: pulumi.InvokeOptions): Promise<AppInfo> {
  checkInvokeOptions("getApp", opts);
  const a = parseArgs("getApp", oneArgs, args);
  return pickOne("getApp", "app", await getApps(), a);
}

/** {@link getApp} for Inputs: an Output of the app. */
export function getAppOutput(
  args: GetAppOutputArgs,
  opts?: pulumi.InvokeOutputOptions,
): pulumi.Output<AppInfo> {
  return invokeOutput(getApp, args, opts);
}

/** Arguments of {@link getAppDeployments}. */
export interface GetAppDeploymentsArgs {
  /** The app's id, e.g. `app.id`. */
  appId: string;
}

/** Arguments of {@link getAppDeploymentsOutput}: {@link GetAppDeploymentsArgs} as Inputs. */
export interface GetAppDeploymentsOutputArgs {
  /** The app's id, e.g. `app.id`. */
  appId: pulumi.Input<string>;
}

/** Arguments of {@link getAppMetrics} and {@link getAppDashboard}. */
export interface GetAppWindowArgs {
  /** The app's id, e.g. `app.id`. */
  appId: string;
  /** The window to report, in whole minutes up to now (at least 1). */
  minutes: number;
}

/** {@link GetAppWindowArgs} as Inputs, for the Output forms. */
export interface GetAppWindowOutputArgs {
  /** The app's id, e.g. `app.id`. */
  appId: pulumi.Input<string>;
  /** The window to report, in whole minutes up to now (at least 1). */
  minutes: pulumi.Input<number>;
}

const appIdArgs = z.strictObject({ appId: z.string().min(1, "appId is required") });
const windowArgs = appIdArgs.extend({
  minutes: z
    .number({ error: "minutes is required: the window in whole minutes" })
    .int("minutes must be a whole number")
    .min(1, "minutes must be at least 1"),
});
assertType<SameShape<z.input<typeof appIdArgs>, GetAppDeploymentsArgs>>(true);
assertType<SameShape<z.input<typeof windowArgs>, GetAppWindowArgs>>(true);

/** The deployments of an app. */
export async function getAppDeployments(
  args: GetAppDeploymentsArgs,
  opts?: pulumi.InvokeOptions,
): Promise<DeploymentInfo[]> {
  checkInvokeOptions("getAppDeployments", opts);
  const a = parseArgs("getAppDeployments", appIdArgs, args);
  return camelize(await programClient().listDeployments(a.appId));
}

/** {@link getAppDeployments} for Inputs: an Output of the list. */
export function getAppDeploymentsOutput(
  args: GetAppDeploymentsOutputArgs,
  opts?: pulumi.InvokeOutputOptions,
): pulumi.Output<DeploymentInfo[]> {
  return invokeOutput(getAppDeployments, args, opts);
}

/**
 * RAM, CPU and network usage of an app over the last `minutes`.
 * @example
 * ```ts
 * const lastHour = await hosting.getAppMetrics({ appId: web.id, minutes: 60 });
 * ```
 */
export async function getAppMetrics(
  args: GetAppWindowArgs,
  opts?: pulumi.InvokeOptions,
): Promise<AppMetrics> {
  checkInvokeOptions("getAppMetrics", opts);
  const a = parseArgs("getAppMetrics", windowArgs, args);
  return camelize(await programClient().getAppMetrics(a.appId, { minutes: a.minutes }));
}

/** {@link getAppMetrics} for Inputs: an Output of the usage series. */
export function getAppMetricsOutput(
  args: GetAppWindowOutputArgs,
  opts?: pulumi.InvokeOutputOptions,
): pulumi.Output<AppMetrics> {
  return invokeOutput(getAppMetrics, args, opts);
}

/**
 * Traffic analytics of an app over the last `minutes`. Analytics must be on: see
 * {@link AppAnalytics}; with the Output form, pass it in `opts.dependsOn`.
 * @example
 * ```ts
 * const analytics = new hosting.AppAnalytics("analytics", { appId: app.id, enabled: true });
 * const traffic = hosting.getAppDashboardOutput(
 *   { appId: app.id, minutes: 60 },
 *   { dependsOn: [analytics] },
 * );
 * ```
 */
export async function getAppDashboard(
  args: GetAppWindowArgs,
  opts?: pulumi.InvokeOptions,
): Promise<AppDashboard> {
  checkInvokeOptions("getAppDashboard", opts);
  const a = parseArgs("getAppDashboard", windowArgs, args);
  try {
    return camelize(await programClient().getDashboardData(a.appId, { minutes: a.minutes }));
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

/** {@link getAppDashboard} for Inputs: an Output of the analytics. */
export function getAppDashboardOutput(
  args: GetAppWindowOutputArgs,
  opts?: pulumi.InvokeOutputOptions,
): pulumi.Output<AppDashboard> {
  return invokeOutput(getAppDashboard, args, opts);
}
