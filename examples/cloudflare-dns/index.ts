import * as path from "node:path";
import * as cloudflare from "@pulumi/cloudflare";
import * as pulumi from "@pulumi/pulumi";
import * as hosting from "pulumi-hosting";

// Outside the root install and the tests: @pulumi/cloudflare needs the Pulumi CLI for its plugin.
//   pulumi config set hosting:apiUrl https://…
//   pulumi config set --secret hosting:token …
//   pulumi config set zoneId <cloudflare zone id>
//   pulumi config set domain www.example.com
//   pulumi config set --secret cloudflare:apiToken …
const config = new pulumi.Config();
const zoneId = config.require("zoneId");
const domain = config.require("domain");

const app = new hosting.App("web", {
  source: path.join(__dirname, "..", "basic", "app"),
  name: "cf-web",
});

// The platform wants the domain CNAME'd to its edge before it will attach it: the routing record
// is created first, then the custom domain, then its ownership and SSL validation records.
const edge = new cloudflare.DnsRecord("edge", {
  zoneId,
  name: domain,
  type: "CNAME",
  content: config.get("edgeTarget") ?? "edge.example-hosting.net",
  ttl: 1,
  proxied: false,
});

const customDomain = new hosting.CustomDomain(
  "www",
  { appId: app.id, domain, waitForActive: false },
  { dependsOn: [edge] },
);

// Every non-routing record from dnsRecords becomes a Cloudflare record.
export const validationRecords = customDomain.dnsRecords.apply((records) =>
  records
    .filter((r) => r.purpose !== "routing")
    .map(
      (r, i) =>
        new cloudflare.DnsRecord(`${r.purpose}-${i}`, {
          zoneId,
          name: r.name,
          type: r.type,
          content: r.value,
          ttl: 1,
        }).name,
    ),
);

export const appId = app.id;
export const status = customDomain.status;
