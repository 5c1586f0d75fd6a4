import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import * as hosting from "pulumi-hosting";

/*
 * An app wired to an existing database, with unit tests in index.test.ts that run under
 * Pulumi's mocks: no service, no token, no `hosting:*` config.
 *   pulumi config set database orders
 */
const config = new pulumi.Config();

const database = hosting.getDatabaseOutput({ name: config.require("database") });
const connection = hosting.getDatabaseConnectionOutput({ databaseId: database.id });
const node = hosting
  .getRuntimeVersionsOutput({ language: "node" })
  .apply((versions) => hosting.pickRuntimeVersion(versions, { language: "node" }));

export const app = new hosting.App("api", {
  source: path.join(__dirname, "app"),
  name: "api",
  runtime: { language: node.language, version: node.version },
  env: { DATABASE_URL: connection.connectionUrl },
});

export const appId = app.id;
export const runtimeVersion = node.version;
