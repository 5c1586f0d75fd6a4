import { assertType } from "../base";
import type {
  AppRuntimeOutput,
  CustomDomainSsl,
  DnsRecord,
  SameKeys,
  ValidationRecordOutput,
} from "../provider";

/*
 * Pulumi package-schema types for the declarations' `type` texts. A text not understood here
 * fails the schema's generation (and so the build), so a new field cannot silently lose its type.
 */

/** A Pulumi schema type reference (a subset of the schema's TypeSpec). */
export interface TypeSpec {
  type?: "string" | "number" | "integer" | "boolean" | "array" | "object";
  items?: TypeSpec;
  additionalProperties?: TypeSpec;
  $ref?: string;
}

/** A property of a Pulumi schema object, resource or function. */
export interface PropertySpec extends TypeSpec {
  description?: string;
  secret?: boolean;
  replaceOnChanges?: boolean;
}

/** A named object type of the schema. */
export interface ObjectTypeSpec {
  type: "object";
  description: string;
  properties: Record<string, PropertySpec>;
  required?: string[];
}

export const PACKAGE = "hosting";
export const tokenOf = (name: string) => `${PACKAGE}:index:${name}`;
const ref = (name: string): TypeSpec => ({ $ref: `#/types/${tokenOf(name)}` });
const text = (description: string): PropertySpec => ({ type: "string", description });

const validationRecord = {
  type: text("Record type, e.g. `TXT`."),
  name: text("Record name."),
  value: text("Record value."),
  txtName: text("Name of the TXT record, when the record is given in that form."),
  txtValue: text("Value of the TXT record."),
};
const ssl = {
  method: text("Validation method, e.g. `txt`."),
  type: text("Certificate type."),
  status: text("Certificate status."),
  validationRecords: {
    type: "array",
    items: ref("ValidationRecord"),
    description: "Records that prove control for the certificate.",
  } satisfies PropertySpec,
};
const dnsRecord = {
  type: text("Record type: `CNAME` or `TXT`."),
  name: text("Record name."),
  value: text("Record value."),
  purpose: text("Why the record is needed: `routing`, `ownership` or `ssl`."),
};
const runtime = {
  language: text('The language, e.g. `"node"`.'),
  version: text('The version, e.g. `"20.18.1"`.'),
};

// Each object type lists exactly the fields of the TypeScript interface it stands for.
assertType<SameKeys<keyof typeof validationRecord, keyof ValidationRecordOutput>>(true);
assertType<SameKeys<keyof typeof ssl, keyof CustomDomainSsl>>(true);
assertType<SameKeys<keyof typeof dnsRecord, keyof DnsRecord>>(true);
assertType<SameKeys<keyof typeof runtime, keyof AppRuntimeOutput>>(true);

/** The object types the resources' fields use, by schema name. */
export const objectTypes: Record<string, ObjectTypeSpec> = {
  ValidationRecord: {
    type: "object",
    description: "A DNS record the platform asks for.",
    properties: validationRecord,
  },
  CustomDomainSsl: {
    type: "object",
    description: "The SSL state of a custom hostname.",
    properties: ssl,
  },
  DnsRecord: {
    type: "object",
    description: "A record to create at your DNS provider.",
    properties: dnsRecord,
    required: Object.keys(dnsRecord),
  },
  AppRuntime: {
    type: "object",
    description: "The language runtime an app runs on.",
    properties: runtime,
    required: Object.keys(runtime),
  },
};

/** The declaration texts that name an object type. */
const NAMED: Record<string, string> = {
  "{ language: string; version: string }": "AppRuntime",
  CustomDomainSsl: "CustomDomainSsl",
  ValidationRecordOutput: "ValidationRecord",
  DnsRecord: "DnsRecord",
};

/** The schema type of a declaration's `type` text, e.g. `string | null`, `DnsRecord[]`. */
export function typeSpecOf(type: string): TypeSpec {
  const t = type.trim();
  const optional = /^(.*?)\s*\|\s*(null|undefined)$/.exec(t);
  if (optional) return typeSpecOf(optional[1]);
  if (t === "string" || t === "number" || t === "boolean") return { type: t };
  if (t === "unknown") return { $ref: "pulumi.json#/Any" };
  if (t.endsWith("[]")) return { type: "array", items: typeSpecOf(t.slice(0, -2)) };
  const record = /^Record<string,\s*(.+)>$/.exec(t);
  if (record) return { type: "object", additionalProperties: typeSpecOf(record[1]) };
  if (NAMED[t] !== undefined) return ref(NAMED[t]);
  throw new Error(
    `no package-schema type for the declared type "${type}": add it to schema-types.ts`,
  );
}
