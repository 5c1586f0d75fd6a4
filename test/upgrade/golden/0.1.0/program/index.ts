import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import * as hosting from "pulumi-hosting";

// One of every resource kind, recorded as a golden state (see ../README.md). The ids of the
// seeded VM, database and backup come from stack config, written by scripts/record-golden.js.
const config = new pulumi.Config("golden");

const app = new hosting.App("web", {
  source: path.join(__dirname, "app"),
  name: "golden-web",
  entrypoint: "index.js",
  ram: 512,
  vcpu: 1,
  description: "golden upgrade state",
  customCommand: "node index.js",
  runtime: { language: "node", version: "20.18.1" },
  env: { GREETING: "golden", NODE_ENV: "production" },
  setupTimeoutSeconds: 60,
});

const domain = new hosting.CustomDomain("www", {
  appId: app.id,
  domain: "www.golden.pointed.test",
  waitForActive: true,
  activeTimeoutSeconds: 60,
});
new hosting.AppWebAccess("web-access", { appId: app.id, enabled: true });
new hosting.AppAnalytics("analytics", { appId: app.id, enabled: true });

new hosting.VmStart("vm", { vmId: config.require("vmId"), triggers: ["golden", 1] });
new hosting.DatabaseSetupRetry("db", { databaseId: config.require("databaseId") });
new hosting.BackupDeletion("backup", {
  projectId: config.require("backupProjectId"),
  backupId: config.require("backupId"),
});

export const appId = app.id;
export const appEnv = app.env;
export const hostname = domain.hostname;
export const dnsRecords = domain.dnsRecords;
