import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import type { DatabaseResponse } from "../api/schemas";
import { camelize, type Camelize } from "../provider/camel";
import { parseArgs } from "../provider/validate";
import { accountArg, outputVariant, programClient, type AccountOption } from "./connection";
import { pickOne } from "./pick-one";

export type DatabaseInfo = Camelize<DatabaseResponse["database"]> & {
  replicaStatus: DatabaseResponse["replica_status"];
  projectInfo: Camelize<DatabaseResponse["project_info"]>;
};

const serviceType = z.enum(["postgres", "mysql", "mongo", "redis"], {
  error: "serviceType must be one of postgres, mysql, mongo, redis",
});
const listArgs = z.strictObject({
  workspaceId: z.string().min(1, "workspaceId must be a workspace id").optional(),
  serviceType: serviceType.optional(),
  ...accountArg,
});
export type GetDatabasesArgs = z.input<typeof listArgs>;

/** Databases of the caller (or of a workspace), optionally of one service type. */
export async function getDatabases(args: GetDatabasesArgs = {}): Promise<DatabaseInfo[]> {
  const a = parseArgs("getDatabases", listArgs, args);
  const list = await programClient(a.account).listDatabases({ workspaceId: a.workspaceId });
  return list
    .filter((d) => !a.serviceType || d.database.service_type === a.serviceType)
    .map((d) => ({
      ...camelize(d.database),
      replicaStatus: d.replica_status,
      projectInfo: camelize(d.project_info),
    }));
}
export const getDatabasesOutput = outputVariant(getDatabases);

const oneArgs = z.union(
  [
    z.strictObject({ id: z.string().min(1), workspaceId: z.string().optional(), ...accountArg }),
    z.strictObject({ name: z.string().min(1), workspaceId: z.string().optional(), ...accountArg }),
  ],
  { error: "pass exactly one of { id } or { name }" },
);
export type GetDatabaseArgs = z.input<typeof oneArgs>;

/** One database by id or by name; a clear error when there is none or several. */
export async function getDatabase(args: GetDatabaseArgs): Promise<DatabaseInfo> {
  const a = parseArgs("getDatabase", oneArgs, args);
  return pickOne(
    "getDatabase",
    "database",
    await getDatabases({ workspaceId: a.workspaceId, account: a.account }),
    a,
  );
}
export const getDatabaseOutput = outputVariant(getDatabase);

const connArgs = z.strictObject({
  databaseId: z.string().min(1, "databaseId is required"),
  ...accountArg,
});

export interface DatabaseConnection {
  databaseId: string;
  /** Holds the password: a Pulumi secret. */
  connectionUrl: pulumi.Output<string>;
  visualizerUrl: string;
}

/** The connection URL of a database, as a secret. */
export async function getDatabaseConnection(
  args: { databaseId: string } & AccountOption,
): Promise<DatabaseConnection> {
  const a = parseArgs("getDatabaseConnection", connArgs, args);
  const info = await programClient(a.account).getDatabaseConnection(a.databaseId);
  return {
    databaseId: a.databaseId,
    connectionUrl: pulumi.secret(info.connection_url),
    visualizerUrl: info.visualizer_url ?? "",
  };
}
export const getDatabaseConnectionOutput = outputVariant(getDatabaseConnection);
