import type { Fields, Shape } from "../fields";

/** A validation record (spec §2.7): the five documented string fields, nothing else. */
const record: Shape = {
  type: "value",
  name: "value",
  value: "value",
  txt_name: "value",
  txt_value: "value",
};

/** Every field of a CustomDomain, declared once; outputs read from the attach reply by name. */
export const customDomainFields = {
  appId: {
    doc: "The app to attach the domain to, e.g. `app.id`. Changing it replaces the domain.",
    outputDoc: "The app the domain is attached to.",
    type: "string",
    input: "required",
    replaces: true,
  },
  domain: {
    doc:
      "A hostname such as `www.example.com` (no scheme, path or port); lower-cased. It must " +
      "already CNAME to the platform's edge: the error names the record to create. Changing it " +
      "replaces the domain (the old one is removed first).",
    outputDoc: "The hostname, lower-cased.",
    type: "string",
    input: "required",
    replaces: true,
  },
  waitForActive: {
    doc:
      "Wait until the hostname is active (DNS records created and verified). Default false. " +
      "Changes in place.",
    outputDoc: "Whether create and update wait until the hostname is active.",
    type: "boolean",
    input: "optional",
    default: false,
  },
  activeTimeoutSeconds: {
    doc:
      "How long to wait with `waitForActive`, in seconds (more than 0, at most 7200; default " +
      "900). Changes in place.",
    outputDoc: "How long they wait, in seconds, when set.",
    type: "number",
    input: "optional",
    default: 900,
  },
  hostname: {
    doc: "The hostname as the platform reports it.",
    type: "string",
    from: "custom_hostname.hostname",
  },
  status: {
    doc: "The hostname's state, e.g. `pending`, then `active`.",
    type: "string",
    from: "custom_hostname.status",
  },
  ssl: {
    doc: "Certificate state and its validation records (`method`, `type`, `status`, `validationRecords`).",
    type: "CustomDomainSsl",
    from: "custom_hostname.ssl",
    shape: { method: "value", type: "value", status: "value", validation_records: [record] },
  },
  ownershipVerification: {
    doc: "The TXT record that proves ownership (`type`, `name`, `value`, `txtName`, `txtValue`).",
    type: "ValidationRecordOutput",
    from: "custom_hostname.ownership_verification",
    shape: record,
  },
  cname: { doc: "The edge target the domain must CNAME to.", type: "string", from: "cname" },
  message: { doc: "The platform's note on attaching, if any.", type: "string", from: "message" },
  dnsRecords: {
    doc:
      "Every record to create at your DNS provider, flat and de-duplicated: CNAME to the edge, " +
      "TXT ownership, SSL validation (`{ type, name, value, purpose }`).",
    type: "DnsRecord[]",
  },
} as const satisfies Fields;
