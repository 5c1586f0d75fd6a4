import type * as pulumi from "@pulumi/pulumi";
import type { AccountInput } from "../account-input";
import { assertType } from "../../base";
import { registeredProps, type ArgKeys, type SameKeys } from "../fields";
import { HostingResource, type OutputKeys } from "../hosting-resource";
import { customDomainFields } from "./fields";
import type { DnsRecord } from "./dns-records";
import { refuseSecondDomain } from "./one-per-app";

export type { DnsRecord } from "./dns-records";

/** Inputs of a {@link CustomDomain}. */
export interface CustomDomainArgs extends AccountInput {
  /** The app to attach the domain to, e.g. `app.id`. Changing it replaces the domain. */
  appId: pulumi.Input<string>;
  /**
   * A hostname such as `www.example.com` (no scheme, path or port); lower-cased. It must
   * already CNAME to the platform's edge: the error names the record to create. Changing it
   * replaces the domain (the old one is removed first).
   */
  domain: pulumi.Input<string>;
  /**
   * Wait until the hostname is active (DNS records created and verified). Default false.
   * Changes in place.
   */
  waitForActive?: pulumi.Input<boolean>;
  /**
   * How long to wait with `waitForActive`, in seconds (more than 0, at most 7200; default 900).
   * Changes in place.
   */
  activeTimeoutSeconds?: pulumi.Input<number>;
}

/** A DNS record the platform asks for, as the {@link CustomDomain} outputs carry it. */
export interface ValidationRecordOutput {
  /** Record type, e.g. `TXT`. */
  type?: string;
  /** Record name. */
  name?: string;
  /** Record value. */
  value?: string;
  /** Name of the TXT record, when the record is given in that form. */
  txtName?: string;
  /** Value of the TXT record. */
  txtValue?: string;
}

/** The SSL state of a custom hostname, as {@link CustomDomain.ssl} carries it. */
export interface CustomDomainSsl {
  /** Validation method, e.g. `txt`. */
  method?: string;
  /** Certificate type. */
  type?: string;
  /** Certificate status. */
  status?: string;
  /** Records that prove control for the certificate. */
  validationRecords?: ValidationRecordOutput[];
}

/**
 * A custom domain attached to an app, with the DNS records it needs as a flat list
 * (`dnsRecords`) to feed to a DNS provider.
 * @example
 * ```ts
 * const www = new hosting.CustomDomain("www", { appId: app.id, domain: "www.example.com" });
 * export const records = www.dnsRecords; // [{ type, name, value, purpose }]
 * ```
 */
export class CustomDomain extends HostingResource {
  /** The app the domain is attached to. */
  declare readonly appId: pulumi.Output<string>;
  /** The hostname, lower-cased. */
  declare readonly domain: pulumi.Output<string>;
  /** Whether create and update wait until the hostname is active. */
  declare readonly waitForActive: pulumi.Output<boolean | undefined>;
  /** How long they wait, in seconds, when set. */
  declare readonly activeTimeoutSeconds: pulumi.Output<number | undefined>;
  /** The named account; undefined for the default account. */
  declare readonly account: pulumi.Output<string | undefined>;
  /** The hostname as the platform reports it. */
  declare readonly hostname: pulumi.Output<string>;
  /** The hostname's state, e.g. `pending`, then `active`. */
  declare readonly status: pulumi.Output<string>;
  /** Certificate state and its validation records (`method`, `type`, `status`, `validationRecords`). */
  declare readonly ssl: pulumi.Output<CustomDomainSsl>;
  /** The TXT record that proves ownership (`type`, `name`, `value`, `txtName`, `txtValue`). */
  declare readonly ownershipVerification: pulumi.Output<ValidationRecordOutput>;
  /** The edge target the domain must CNAME to. */
  declare readonly cname: pulumi.Output<string>;
  /** The platform's note on attaching, if any. */
  declare readonly message: pulumi.Output<string>;
  /**
   * Every record to create at your DNS provider, flat and de-duplicated: CNAME to the edge, TXT
   * ownership, SSL validation (`{ type, name, value, purpose }`).
   */
  declare readonly dnsRecords: pulumi.Output<DnsRecord[]>;

  /**
   * @param name The Pulumi resource name.
   * @param args The app and the hostname.
   * @param opts Pulumi resource options.
   */
  constructor(name: string, args: CustomDomainArgs, opts?: pulumi.CustomResourceOptions) {
    refuseSecondDomain(name, args.appId);
    // Every declared field is registered (customDomainFields), or its output is undefined.
    const props = registeredProps(customDomainFields, args);
    super("CustomDomain", name, props, opts);
  }
}

// The hand-written Args and outputs name exactly the declared fields.
assertType<SameKeys<keyof CustomDomainArgs, ArgKeys<typeof customDomainFields> | "account">>(true);
assertType<SameKeys<OutputKeys<CustomDomain>, keyof typeof customDomainFields | "account">>(true);
