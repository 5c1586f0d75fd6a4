import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { camelize } from "../base";
import { idInput, parseArgs } from "../inputs";
import type { HostingClient } from "../api/wire";
import { apiCall, mockedList } from "./api-call";
import { accountArg } from "./account-arg";
import { byIdArgs } from "./by-id-args";
import { pickOne } from "./pick-one";
import type { DatabaseConnection, DatabaseInfo } from "./results";

/* What the database data sources do (see calls.ts). */

const serviceType = z.enum(["postgres", "mysql", "mongo", "redis"], {
  error: "serviceType must be one of postgres, mysql, mongo, redis",
});
const workspaceId = z.string().min(1, "workspaceId must be a workspace id").optional();
const listArgs = z.strictObject({
  workspaceId,
  serviceType: serviceType.optional(),
  ...accountArg,
});
const oneArgs = byIdArgs({ workspaceId, ...accountArg });
const connArgs = z.strictObject({
  databaseId: idInput("databaseId", "pass a database id, e.g. from getDatabase()"),
  ...accountArg,
});

/** The argument schemas, which databases.ts holds equal to its documented types. */
export const databaseArgs = { listArgs, oneArgs, connArgs };

async function listDatabases(
  c: HostingClient,
  a: { workspaceId?: string; serviceType?: string },
): Promise<DatabaseInfo[]> {
  const list = await c.listDatabases({ workspaceId: a.workspaceId });
  return list
    .filter((d) => !a.serviceType || d.database.service_type === a.serviceType)
    .map((d) => ({
      ...camelize(d.database),
      replicaStatus: d.replica_status,
      projectInfo: camelize(d.project_info),
    }));
}

export async function getDatabases(args: unknown): Promise<DatabaseInfo[]> {
  const a = parseArgs("getDatabases", listArgs, args);
  return apiCall("getDatabases", a, (c) => listDatabases(c, a), mockedList);
}

export async function getDatabase(args: unknown): Promise<DatabaseInfo> {
  const a = parseArgs("getDatabase", oneArgs, args);
  return apiCall("getDatabase", a, async (c) =>
    pickOne("getDatabase", "database", await listDatabases(c, a), a),
  );
}

export async function getDatabaseConnection(args: unknown): Promise<DatabaseConnection> {
  const a = parseArgs("getDatabaseConnection", connArgs, args);
  return apiCall(
    "getDatabaseConnection",
    a,
    async (c) => {
      const info = await c.getDatabaseConnection(a.databaseId);
      return {
        databaseId: a.databaseId,
        connectionUrl: pulumi.secret(info.connection_url),
        visualizerUrl: info.visualizer_url ?? "",
      };
    },
    (mocked) => ({ ...mocked, connectionUrl: pulumi.secret(mocked.connectionUrl) }),
  );
}
