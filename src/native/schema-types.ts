import { assertType } from "../base";
import type {
  AppRuntimeOutput,
  CustomDomainSsl,
  DnsRecord,
  SameKeys,
  ValidationRecordOutput,
} from "../provider";

/*
 * The package schema's types, and the object types the resources' fields name, written here with
 * the schema's own words. The build's converter (scripts/plugin-schema.js) refers to these rather
 * than making them from the TypeScript interfaces they stand for.
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

/**
 * The TypeScript types the object types above stand for, by their names in the package's
 * declarations, where the schema names them otherwise. An anonymous object type (App's `runtime`
 * is declared `{ language: string; version: string }`) takes the name of where it stands.
 */
export const objectTypeNames: Readonly<Record<string, string>> = {
  ValidationRecordOutput: "ValidationRecord",
  AppRuntimeOutput: "AppRuntime",
};
