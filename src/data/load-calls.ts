/* eslint-disable @typescript-eslint/no-require-imports */
import { once } from "../lazy";

/*
 * The data sources' implementations (argument schemas in zod, the client and its undici) load on
 * the first call, so a program that only declares resources does not pay for them. The public
 * modules beside this one hold the documented signatures and forward here.
 */

export const databaseCalls = once(
  () => require("./database-calls") as typeof import("./database-calls"),
);
export const appCalls = once(() => require("./app-calls") as typeof import("./app-calls"));
export const backupCalls = once(() => require("./backup-calls") as typeof import("./backup-calls"));
export const runtimeVersionCalls = once(
  () => require("./runtime-version-calls") as typeof import("./runtime-version-calls"),
);
export const actionCalls = once(() => require("./action-calls") as typeof import("./action-calls"));
