import * as pulumi from "@pulumi/pulumi";
import type { AccountInput } from "../account-input";
import { thinProvider } from "../thin-provider";
import type { DnsRecord } from "./dns-records";

export type { DnsRecord } from "./dns-records";

export interface CustomDomainArgs extends AccountInput {
  appId: pulumi.Input<string>;
  /** A hostname such as www.example.com; lower-cased. It must already CNAME to the edge. */
  domain: pulumi.Input<string>;
  /** Wait until the hostname is active (DNS records created and verified). */
  waitForActive?: pulumi.Input<boolean>;
  /** How long to wait with waitForActive (default 900). */
  activeTimeoutSeconds?: pulumi.Input<number>;
}

export interface ValidationRecordOutput {
  type?: string;
  name?: string;
  value?: string;
  txtName?: string;
  txtValue?: string;
}

const provider = thinProvider("CustomDomain");

/** A custom domain attached to an app, with the DNS records it needs as a flat list. */
export class CustomDomain extends pulumi.dynamic.Resource {
  declare readonly appId: pulumi.Output<string>;
  declare readonly domain: pulumi.Output<string>;
  declare readonly waitForActive: pulumi.Output<boolean | undefined>;
  declare readonly activeTimeoutSeconds: pulumi.Output<number | undefined>;
  /** The named account; undefined for the default account. */
  declare readonly account: pulumi.Output<string | undefined>;
  declare readonly hostname: pulumi.Output<string>;
  declare readonly status: pulumi.Output<string>;
  declare readonly ssl: pulumi.Output<{
    method?: string;
    type?: string;
    status?: string;
    validationRecords?: ValidationRecordOutput[];
  }>;
  declare readonly ownershipVerification: pulumi.Output<ValidationRecordOutput>;
  declare readonly cname: pulumi.Output<string>;
  declare readonly message: pulumi.Output<string>;
  /** Every record to create at your DNS provider: CNAME to the edge, TXT ownership, SSL validation. */
  declare readonly dnsRecords: pulumi.Output<DnsRecord[]>;

  constructor(name: string, args: CustomDomainArgs, opts?: pulumi.CustomResourceOptions) {
    // Every declared output needs its key here (see App).
    const props = {
      waitForActive: undefined,
      activeTimeoutSeconds: undefined,
      ...args,
      account: args.account,
      hostname: undefined,
      status: undefined,
      ssl: undefined,
      ownershipVerification: undefined,
      cname: undefined,
      message: undefined,
      dnsRecords: undefined,
    };
    super(provider, name, props, opts, "hosting", "CustomDomain");
  }
}
