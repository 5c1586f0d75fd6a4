import * as path from "node:path";
import * as cloudflare from "@pulumi/cloudflare";
import * as pulumi from "@pulumi/pulumi";
import * as hosting from "pulumi-hosting";

// Outside the root install and the tests: @pulumi/cloudflare needs the Pulumi CLI for its plugin.
//   pulumi config set hosting:apiUrl https://…
//   pulumi config set --secret hosting:token …
//   pulumi config set zoneId <cloudflare zone id>
//   pulumi config set domain www.example.com
//   pulumi config set edgeTarget <the platform's edge host>
//   pulumi config set --secret cloudflare:apiToken …
const config = new pulumi.Config();
const zoneId = config.require("zoneId");
const domain = config.require("domain");
// The spec gives the edge target only in the service's answers: the refusal of a domain not yet
// pointed at the edge names it ("create a CNAME record www.example.com → …"), and an attached
// domain's `cname` output holds it. It is not guessed here.
const edgeTarget = config.require("edgeTarget");

const app = new hosting.App("web", {
  source: path.join(__dirname, "app"),
  name: "cf-web",
});

// The platform wants the domain CNAME'd to its edge before it will attach it: the routing record
// is created first, then the custom domain, then its ownership and SSL validation records.
const edge = new cloudflare.DnsRecord("edge", {
  zoneId,
  name: domain,
  type: "CNAME",
  content: edgeTarget,
  ttl: 1,
  proxied: false,
});

const customDomain = new hosting.CustomDomain(
  "www",
  { appId: app.id, domain, waitForActive: false },
  { dependsOn: [edge] },
);

/*
 * One Cloudflare record per validation record the platform asks for. The list of slots is fixed
 * here, outside any `apply`, so `pulumi preview` shows every record it will create (a resource
 * made inside an `apply` does not show in a preview). Only the names and values come from
 * `dnsRecords`, as Outputs. The platform asks for one ownership and one SSL record.
 */
const slots = [
  { purpose: "ownership", index: 0 },
  { purpose: "ssl", index: 0 },
] as const;

type Wanted = hosting.DnsRecord;

/*
 * Should the platform ask for a different number of records, this says so as an error on the
 * custom domain and leaves every validation slot empty, so Cloudflare refuses those records
 * (a missing name) and the `up` fails before any of them is made. Nothing is thrown inside the
 * `apply`: on Node.js 20.20 an error thrown there can take minutes and gigabytes to print (see
 * the README's "Slow error reports on Node.js 20.20").
 */
const matched: pulumi.Output<Wanted[]> = customDomain.dnsRecords.apply(async (records) => {
  const wrong = (["ownership", "ssl"] as const).flatMap((purpose) => {
    const asked = records.filter((r) => r.purpose === purpose).length;
    const declared = slots.filter((s) => s.purpose === purpose).length;
    return asked === declared
      ? []
      : [`${asked} ${purpose} record(s), this program declares ${declared}`];
  });
  if (wrong.length === 0) return records;
  // The slots wait until the engine has the message, then stay empty: a record refused before
  // the message is in ends the run, and a message that comes after that is not printed.
  await pulumi.log.error(
    `the platform asks for ${wrong.join(" and for ")} for ${domain}: make the slots list in ` +
      "index.ts hold as many of each; no validation record is created until they match",
    customDomain,
  );
  return [];
});

// A slot the platform's records do not fill holds no record: its name and value are undefined.
function slotRecord(purpose: Wanted["purpose"], index: number): pulumi.Output<Wanted> {
  return matched.apply((records) => records.filter((r) => r.purpose === purpose)[index]);
}

const validation = slots.map(({ purpose, index }) => {
  const record = slotRecord(purpose, index);
  return new cloudflare.DnsRecord(`${purpose}-${index}`, {
    zoneId,
    name: record.name,
    type: record.type,
    content: record.value,
    ttl: 1,
  });
});

export const validationRecords = validation.map((r) => r.name);
export const appId = app.id;
export const status = customDomain.status;
