import type * as pulumi from "@pulumi/pulumi";
import type { AccountOption, AccountOptionInput } from "./account-option";
import { checkInvokeOptions, invokeOutput } from "./invoke";
import { appCalls } from "./load-calls";
import type { ById, ByIdInput } from "./pick-one";
import type { AppDashboard, AppInfo, AppMetrics, DeploymentInfo } from "./results";

/** Arguments of {@link getApps}: only the account. */
export type GetAppsArgs = AccountOption;

/** Arguments of {@link getAppsOutput}: only the account. */
export type GetAppsOutputArgs = AccountOptionInput;

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
  return appCalls().getApps(args);
}

/** {@link getApps} as an Output. */
export function getAppsOutput(
  args: GetAppsOutputArgs = {},
  opts?: pulumi.InvokeOutputOptions,
): pulumi.Output<AppInfo[]> {
  return invokeOutput(getApps, args, opts);
}

/** Arguments of {@link getApp}: exactly one of `id` or `name`. */
export type GetAppArgs = ById & AccountOption;

/** Arguments of {@link getAppOutput}: {@link GetAppArgs} as Inputs. */
export type GetAppOutputArgs = ByIdInput & AccountOptionInput;

/**
 * One app by id or by name; a clear error when there is none or several.
 * @example
 * ```ts
 * const web = await hosting.getApp({ name: "web" });
 * ```
 */
export async function getApp(args: GetAppArgs, opts?: pulumi.InvokeOptions): Promise<AppInfo> {
  checkInvokeOptions("getApp", opts);
  return appCalls().getApp(args);
}

/** {@link getApp} for Inputs: an Output of the app. */
export function getAppOutput(
  args: GetAppOutputArgs,
  opts?: pulumi.InvokeOutputOptions,
): pulumi.Output<AppInfo> {
  return invokeOutput(getApp, args, opts);
}

/** Arguments of {@link getAppDeployments}. */
export interface GetAppDeploymentsArgs extends AccountOption {
  /** The app's id, e.g. `app.id`. */
  appId: string;
}

/** Arguments of {@link getAppDeploymentsOutput}: {@link GetAppDeploymentsArgs} as Inputs. */
export interface GetAppDeploymentsOutputArgs extends AccountOptionInput {
  /** The app's id, e.g. `app.id`. */
  appId: pulumi.Input<string>;
}

/** Arguments of {@link getAppMetrics} and {@link getAppDashboard}. */
export interface GetAppWindowArgs extends AccountOption {
  /** The app's id, e.g. `app.id`. */
  appId: string;
  /** The window to report, in whole minutes up to now (at least 1). */
  minutes: number;
}

/** {@link GetAppWindowArgs} as Inputs, for the Output forms. */
export interface GetAppWindowOutputArgs extends AccountOptionInput {
  /** The app's id, e.g. `app.id`. */
  appId: pulumi.Input<string>;
  /** The window to report, in whole minutes up to now (at least 1). */
  minutes: pulumi.Input<number>;
}

/** The deployments of an app. */
export async function getAppDeployments(
  args: GetAppDeploymentsArgs,
  opts?: pulumi.InvokeOptions,
): Promise<DeploymentInfo[]> {
  checkInvokeOptions("getAppDeployments", opts);
  return appCalls().getAppDeployments(args);
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
  return appCalls().getAppMetrics(args);
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
  return appCalls().getAppDashboard(args);
}

/** {@link getAppDashboard} for Inputs: an Output of the analytics. */
export function getAppDashboardOutput(
  args: GetAppWindowOutputArgs,
  opts?: pulumi.InvokeOutputOptions,
): pulumi.Output<AppDashboard> {
  return invokeOutput(getAppDashboard, args, opts);
}
