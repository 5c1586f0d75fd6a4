/*
 * The part of @pulumi/cloudflare (v6) that examples/cloudflare-dns uses, copied in shape from the
 * real package's dnsRecord.d.ts: the example type-checks without installing it (about 21 MB, and
 * its provider plugin needs the Pulumi CLI). Keep DnsRecordArgs in step with the real one.
 */
import * as pulumi from "@pulumi/pulumi";

export interface DnsRecordArgs {
  comment?: pulumi.Input<string | undefined>;
  content?: pulumi.Input<string | undefined>;
  includeShadowMetadata?: pulumi.Input<boolean | undefined>;
  name: pulumi.Input<string>;
  priority?: pulumi.Input<number | undefined>;
  privateRouting?: pulumi.Input<boolean | undefined>;
  proxied?: pulumi.Input<boolean | undefined>;
  tags?: pulumi.Input<pulumi.Input<string>[] | undefined>;
  ttl: pulumi.Input<number>;
  type: pulumi.Input<string>;
  zoneId: pulumi.Input<string>;
}

export declare class DnsRecord extends pulumi.CustomResource {
  readonly comment: pulumi.Output<string | undefined>;
  readonly content: pulumi.Output<string>;
  readonly name: pulumi.Output<string>;
  readonly proxied: pulumi.Output<boolean>;
  readonly ttl: pulumi.Output<number>;
  readonly type: pulumi.Output<string>;
  readonly zoneId: pulumi.Output<string>;
  constructor(name: string, args: DnsRecordArgs, opts?: pulumi.CustomResourceOptions);
}
