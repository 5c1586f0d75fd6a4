import * as pulumi from "@pulumi/pulumi";

/*
 * examples/cloudflare-dns in a preview of a new stack, where the custom domain's dnsRecords are
 * not known yet: every Cloudflare record it will create must be registered (and so shown by
 * `pulumi preview`), not made later inside an `apply`. Pulumi's own mocks in preview mode stand in
 * for the engine; @pulumi/cloudflare (not installed here) is a CustomResource of its real type.
 */

jest.mock(
  "@pulumi/cloudflare",
  () => {
    const p = jest.requireActual("@pulumi/pulumi") as typeof pulumi;
    class DnsRecord extends p.CustomResource {
      constructor(name: string, args: pulumi.Inputs, opts?: pulumi.CustomResourceOptions) {
        super("cloudflare:index/dnsRecord:DnsRecord", name, args, opts);
      }
    }
    return { DnsRecord };
  },
  { virtual: true },
);
jest.mock("pulumi-hosting", () => jest.requireActual("../../src"), { virtual: true });

const registered: Array<{ type: string; name: string }> = [];
pulumi.runtime.setMocks(
  {
    newResource: (a) => {
      registered.push({ type: a.type, name: a.name });
      // The service computes dnsRecords: in a preview of a new stack it is not known.
      return { id: `${a.name}-id`, state: a.inputs };
    },
    call: (a) => a.inputs,
  },
  "hosting-cloudflare-dns",
  "dev",
  true,
);
pulumi.runtime.setAllConfig({
  "hosting-cloudflare-dns:zoneId": "zone-1",
  "hosting-cloudflare-dns:domain": "www.example.com",
  "hosting-cloudflare-dns:edgeTarget": "edge.hosting.test",
});

test("a preview of a new stack shows the edge CNAME and every validation record", async () => {
  expect(pulumi.runtime.isDryRun()).toBe(true);
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  require("../../examples/cloudflare-dns");
  // Every registration the program started, as the engine waits for them before it ends.
  await pulumi.runtime.disconnect();
  const records = registered.filter((r) => r.type === "cloudflare:index/dnsRecord:DnsRecord");
  expect(records.map((r) => r.name).sort()).toEqual(["edge", "ownership-0", "ssl-0"]);
});
