import type * as pulumi from "@pulumi/pulumi";
import type { AccountOption, AccountOptionInput } from "./account-option";
import type { z } from "zod";
import { assertType, type SameShape } from "../base";
import type { appArgs } from "./app-calls";
import type { DataSourceFunction, DataSourceOutputFunction } from "./function-types";
import { dataSource, outputOf } from "./data-source";
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
export const getApps: (args?: GetAppsArgs, opts?: pulumi.InvokeOptions) => Promise<AppInfo[]> =
  dataSource("getApps", {});

/** {@link getApps} as an Output. */
export const getAppsOutput: (
  args?: GetAppsOutputArgs,
  opts?: pulumi.InvokeOutputOptions,
) => pulumi.Output<AppInfo[]> = outputOf(getApps);

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
export const getApp: DataSourceFunction<GetAppArgs, AppInfo> = dataSource("getApp");

/** {@link getApp} for Inputs: an Output of the app. */
export const getAppOutput: DataSourceOutputFunction<GetAppOutputArgs, AppInfo> = outputOf(getApp);

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
export const getAppDeployments: DataSourceFunction<GetAppDeploymentsArgs, DeploymentInfo[]> =
  dataSource("getAppDeployments");

/** {@link getAppDeployments} for Inputs: an Output of the list. */
export const getAppDeploymentsOutput: DataSourceOutputFunction<
  GetAppDeploymentsOutputArgs,
  DeploymentInfo[]
> = outputOf(getAppDeployments);

/**
 * RAM, CPU and network usage of an app over the last `minutes`.
 * @example
 * ```ts
 * const lastHour = await hosting.getAppMetrics({ appId: web.id, minutes: 60 });
 * ```
 */
export const getAppMetrics: DataSourceFunction<GetAppWindowArgs, AppMetrics> =
  dataSource("getAppMetrics");

/** {@link getAppMetrics} for Inputs: an Output of the usage series. */
export const getAppMetricsOutput: DataSourceOutputFunction<GetAppWindowOutputArgs, AppMetrics> =
  outputOf(getAppMetrics);

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
export const getAppDashboard: DataSourceFunction<GetAppWindowArgs, AppDashboard> =
  dataSource("getAppDashboard");

/** {@link getAppDashboard} for Inputs: an Output of the analytics. */
export const getAppDashboardOutput: DataSourceOutputFunction<GetAppWindowOutputArgs, AppDashboard> =
  outputOf(getAppDashboard);

assertType<SameShape<z.input<typeof appArgs.oneArgs>, GetAppArgs>>(true);
assertType<SameShape<z.input<typeof appArgs.appIdArgs>, GetAppDeploymentsArgs>>(true);
assertType<SameShape<z.input<typeof appArgs.windowArgs>, GetAppWindowArgs>>(true);
