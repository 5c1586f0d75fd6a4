import type * as pulumi from "@pulumi/pulumi";
import type { DatabaseServiceType } from "../api";
import type { AccountOption, AccountOptionInput } from "./account-option";
import type { z } from "zod";
import { assertType, type SameShape } from "../base";
import type { databaseArgs } from "./database-calls";
import type { DataSourceFunction, DataSourceOutputFunction } from "./function-types";
import { dataSource, outputOf } from "./data-source";
import type { ById, ByIdInput } from "./pick-one";
import type { DatabaseConnection, DatabaseInfo } from "./results";

/** Arguments of {@link getDatabases}. */
export interface GetDatabasesArgs extends AccountOption {
  /** List this workspace's databases instead of your own. */
  workspaceId?: string;
  /** Only databases of this engine. */
  serviceType?: DatabaseServiceType;
}

/** Arguments of {@link getDatabasesOutput}: those of {@link GetDatabasesArgs}, as Inputs. */
export interface GetDatabasesOutputArgs extends AccountOptionInput {
  /** List this workspace's databases instead of your own. */
  workspaceId?: pulumi.Input<string>;
  /** Only databases of this engine. */
  serviceType?: pulumi.Input<DatabaseServiceType>;
}

/**
 * Your databases (or a workspace's), optionally of one engine.
 * @example
 * ```ts
 * const postgres = await hosting.getDatabases({ serviceType: "postgres" });
 * ```
 */
export const getDatabases: (
  args?: GetDatabasesArgs,
  opts?: pulumi.InvokeOptions,
) => Promise<DatabaseInfo[]> = dataSource("getDatabases", {});

/**
 * {@link getDatabases} for Inputs: an Output of the list.
 * @example
 * ```ts
 * const redis = hosting.getDatabasesOutput({ serviceType: "redis" });
 * ```
 */
export const getDatabasesOutput: (
  args?: GetDatabasesOutputArgs,
  opts?: pulumi.InvokeOutputOptions,
) => pulumi.Output<DatabaseInfo[]> = outputOf(getDatabases);

/** Arguments of {@link getDatabase}: exactly one of `id` or `name`, and optionally a workspace. */
export type GetDatabaseArgs = ById &
  AccountOption & {
    /** Look in this workspace's databases instead of your own. */
    workspaceId?: string;
  };

/** Arguments of {@link getDatabaseOutput}: those of {@link GetDatabaseArgs}, as Inputs. */
export type GetDatabaseOutputArgs = ByIdInput &
  AccountOptionInput & {
    /** Look in this workspace's databases instead of your own. */
    workspaceId?: pulumi.Input<string>;
  };

/**
 * One database by id or by name; a clear error when there is none or several.
 * @example
 * ```ts
 * const orders = await hosting.getDatabase({ name: "orders" });
 * ```
 */
export const getDatabase: DataSourceFunction<GetDatabaseArgs, DatabaseInfo> =
  dataSource("getDatabase");

/** {@link getDatabase} for Inputs: an Output of the database. */
export const getDatabaseOutput: DataSourceOutputFunction<GetDatabaseOutputArgs, DatabaseInfo> =
  outputOf(getDatabase);

/** Arguments of {@link getDatabaseConnection}. */
export interface GetDatabaseConnectionArgs extends AccountOption {
  /** The database's id, e.g. `db.id` of {@link getDatabase}. */
  databaseId: string;
}

/** Arguments of {@link getDatabaseConnectionOutput}: {@link GetDatabaseConnectionArgs} as Inputs. */
export interface GetDatabaseConnectionOutputArgs extends AccountOptionInput {
  /** The database's id, e.g. `db.id` of {@link getDatabaseOutput}. */
  databaseId: pulumi.Input<string>;
}

/**
 * The connection URL of a database, as a Pulumi secret.
 * @example
 * ```ts
 * const conn = await hosting.getDatabaseConnection({ databaseId: orders.id });
 * export const url = conn.connectionUrl; // secret
 * ```
 */
export const getDatabaseConnection: DataSourceFunction<
  GetDatabaseConnectionArgs,
  DatabaseConnection
> = dataSource("getDatabaseConnection");

/** {@link getDatabaseConnection} for Inputs: an Output whose `connectionUrl` is a secret. */
export const getDatabaseConnectionOutput: DataSourceOutputFunction<
  GetDatabaseConnectionOutputArgs,
  DatabaseConnection
> = outputOf(getDatabaseConnection);

assertType<SameShape<z.input<typeof databaseArgs.listArgs>, GetDatabasesArgs>>(true);
assertType<SameShape<z.input<typeof databaseArgs.oneArgs>, GetDatabaseArgs>>(true);
assertType<SameShape<z.input<typeof databaseArgs.connArgs>, GetDatabaseConnectionArgs>>(true);
