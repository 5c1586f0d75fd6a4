import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import * as hosting from "pulumi-hosting";

const config = new pulumi.Config();
// Under the emulator, domains ending in .pointed.test count as already CNAME'd to the edge.
const domain = config.get("domain") ?? "www.basic.pointed.test";
const greeting = config.get("greeting") ?? "hello";

// The recommended Node.js runtime, whatever it is today.
const node = hosting
  .getRuntimeVersionsOutput({ language: "node" })
  .apply((versions) =>
    hosting.pickRuntimeVersion(versions, { language: "node", prefer: "recommended" }),
  );

const databases = hosting.getDatabasesOutput();

const app = new hosting.App("web", {
  source: path.join(__dirname, "app"),
  name: "basic-web",
  entrypoint: "index.js",
  ram: 512,
  // What pickRuntimeVersion returns is a runtime as it is (its other fields are ignored).
  runtime: node,
  env: { GREETING: greeting, NODE_ENV: "production" },
});

const customDomain = new hosting.CustomDomain("www", { appId: app.id, domain });
new hosting.AppWebAccess("web-access", { appId: app.id, enabled: true });
new hosting.AppAnalytics("analytics", { appId: app.id, enabled: true });

// A connection URL carries a password: it stays a secret all the way to the stack outputs.
const postgres = databases.apply((dbs) => dbs.find((d) => d.serviceType === "postgres"));
export const databaseConnectionUrl = postgres.apply((db) =>
  db ? hosting.getDatabaseConnectionOutput({ databaseId: db.id }).connectionUrl : undefined,
);

export const appId = app.id;
export const runtime = node.apply((v) => `${v.language} ${v.version}`);
export const appUrl = pulumi.interpolate`https://${customDomain.hostname}`;
export const dnsRecords = customDomain.dnsRecords;
export const databaseNames = databases.apply((dbs) => dbs.map((d) => d.name));
