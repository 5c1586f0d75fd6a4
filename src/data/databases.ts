import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { assertType, type SameShape } from "../api/type-equality";
import type { DatabaseServiceType } from "../api/types";
import { camelize } from "../provider/camel";
import { parseArgs } from "../provider/validate";
import { programClient } from "./connection";
import { checkInvokeOptions, invokeOutput } from "./invoke";
import { pickOne, type ById, type ByIdInput } from "./pick-one";
import type { DatabaseConnection, DatabaseInfo } from "./results";

/** Arguments of {@link getDatabases}. */
export interface GetDatabasesArgs {
  /** List this workspace's databases instead of your own. */
  workspaceId?: string;
  /** Only databases of this engine. */
  serviceType?: DatabaseServiceType;
}

/** Arguments of {@link getDatabasesOutput}: those of {@link GetDatabasesArgs}, as Inputs. */
export interface GetDatabasesOutputArgs {
  /** List this workspace's databases instead of your own. */
  workspaceId?: pulumi.Input<string>;
  /** Only databases of this engine. */
  serviceType?: pulumi.Input<DatabaseServiceType>;
}

const serviceType = z.enum(["postgres", "mysql", "mongo", "redis"], {
  error: "serviceType must be one of postgres, mysql, mongo, redis",
});
const workspaceId = z.string().min(1, "workspaceId must be a workspace id").optional();
const listArgs = z.strictObject({ workspaceId, serviceType: serviceType.optional() });
assertType<SameShape<z.input<typeof listArgs>, GetDatabasesArgs>>(true);

/**
 * Your databases (or a workspace's), optionally of one engine.
 * @example
 * ```ts
 * const postgres = await hosting.getDatabases({ serviceType: "postgres" });
 * ```
 */
export async function getDatabases(
  args: GetDatabasesArgs = {},
  opts?: pulumi.InvokeOptions,
): Promise<DatabaseInfo[]> {
  checkInvokeOptions("getDatabases", opts);
  const a = parseArgs("getDatabases", listArgs, args);
  const list = await programClient().listDatabases({ workspaceId: a.workspaceId });
  return list
    .filter((d) => !a.serviceType || d.database.service_type === a.serviceType)
    .map((d) => ({
      ...camelize(d.database),
      replicaStatus: d.replica_status,
      projectInfo: camelize(d.project_info),
    }));
}

/**
 * {@link getDatabases} for Inputs: an Output of the list.
 * @example
 * ```ts
 * const redis = hosting.getDatabasesOutput({ serviceType: "redis" });
 * ```
 */
export function getDatabasesOutput(
  args: GetDatabasesOutputArgs = {},
  opts?: pulumi.InvokeOutputOptions,
): pulumi.Output<DatabaseInfo[]> {
  return invokeOutput(getDatabases, args, opts);
}

/** Arguments of {@link getDatabase}: exactly one of `id` or `name`, and optionally a workspace. */
export type GetDatabaseArgs = ById & {
  /** Look in this workspace's databases instead of your own. */
  workspaceId?: string;
};

/** Arguments of {@link getDatabaseOutput}: those of {@link GetDatabaseArgs}, as Inputs. */
export type GetDatabaseOutputArgs = ByIdInput & {
  /** Look in this workspace's databases instead of your own. */
  workspaceId?: pulumi.Input<string>;
};

const oneArgs = z.union(
  [
    z.strictObject({ id: z.string().min(1), workspaceId }),
    z.strictObject({ name: z.string().min(1), workspaceId }),
  ],
  { error: "pass exactly one of { id } or { name }" },
);

/**
 * One database by id or by name; a clear error when there is none or several.
 * @example
 * ```ts
 * const orders = await hosting.getDatabase({ name: "orders" });
 * ```
 */
export async function getDatabase(
  args: GetDatabaseArgs,
  opts?: pulumi.InvokeOptions,
): Promise<DatabaseInfo> {
  checkInvokeOptions("getDatabase", opts);
  const a = parseArgs("getDatabase", oneArgs, args);
  return pickOne("getDatabase", "database", await getDatabases({ workspaceId: a.workspaceId }), a);
}

/** {@link getDatabase} for Inputs: an Output of the database. */
export function getDatabaseOutput(
  args: GetDatabaseOutputArgs,
  opts?: pulumi.InvokeOutputOptions,
): pulumi.Output<DatabaseInfo> {
  return invokeOutput(getDatabase, args, opts);
}

/** Arguments of {@link getDatabaseConnection}. */
export interface GetDatabaseConnectionArgs {
  /** The database's id, e.g. `db.id` of {@link getDatabase}. */
  databaseId: string;
}

/** Arguments of {@link getDatabaseConnectionOutput}: {@link GetDatabaseConnectionArgs} as Inputs. */
export interface GetDatabaseConnectionOutputArgs {
  /** The database's id, e.g. `db.id` of {@link getDatabaseOutput}. */
  databaseId: pulumi.Input<string>;
}

const connArgs = z.strictObject({ databaseId: z.string().min(1, "databaseId is required") });
assertType<SameShape<z.input<typeof connArgs>, GetDatabaseConnectionArgs>>(true);

/**
 * The connection URL of a database, as a Pulumi secret.
 * @example
 * ```ts
 * const conn = await hosting.getDatabaseConnection({ databaseId: orders.id });
 * export const url = conn.connectionUrl; // secret
 * ```
 */
export async function getDatabaseConnection(
  args: GetDatabaseConnectionArgs,
  opts?: pulumi.InvokeOptions,
): Promise<DatabaseConnection> {
  checkInvokeOptions("getDatabaseConnection", opts);
  const a = parseArgs("getDatabaseConnection", connArgs, args);
  const info = await programClient().getDatabaseConnection(a.databaseId);
  return {
    databaseId: a.databaseId,
    connectionUrl: pulumi.secret(info.connection_url),
    visualizerUrl: info.visualizer_url ?? "",
  };
}

/** {@link getDatabaseConnection} for Inputs: an Output whose `connectionUrl` is a secret. */
export function getDatabaseConnectionOutput(
  args: GetDatabaseConnectionOutputArgs,
  opts?: pulumi.InvokeOutputOptions,
): pulumi.Output<DatabaseConnection> {
  return invokeOutput(getDatabaseConnection, args, opts);
}
