import type { SettingKey } from "../connection";
import { accountField, type Field, type ResourceDeclaration } from "../provider";
import {
  PACKAGE,
  tokenOf,
  type ObjectTypeSpec,
  type PropertySpec,
  type TypeSpec,
} from "./schema-types";

/*
 * What the Pulumi package schema of the native plugin says, made from the same declarations as
 * the dynamic resources, their checks and the reference pages. Types come from TypeScript: the
 * build's one converter (scripts/plugin-schema.js) reads the fields' declared types and the
 * data sources' signatures, so they are passed in. The plugin serves the file it writes.
 */

/** A resource of the schema. */
export interface ResourceSpec {
  description: string;
  properties: Record<string, PropertySpec>;
  required: string[];
  inputProperties: Record<string, PropertySpec>;
  requiredInputs: string[];
}

/** A function (invoke) of the schema. */
export interface FunctionSpec {
  description: string;
  inputs: { properties: Record<string, PropertySpec>; required?: string[] };
  outputs: { properties: Record<string, PropertySpec>; required?: string[] };
}

/** Provider configuration, one entry per stack setting (compile-checked against SETTINGS). */
const CONFIG: Record<SettingKey, PropertySpec> = {
  "hosting:apiUrl": {
    type: "string",
    description: "Base URL of the Hosting Management API (`https`; `http` for loopback hosts).",
  },
  "hosting:token": {
    type: "string",
    secret: true,
    description: "The API token from the dashboard's account settings; kept secret.",
  },
  "hosting:accounts": {
    type: "object",
    additionalProperties: { $ref: `#/types/${tokenOf("Account")}` },
    description: "Named accounts (`{ <name>: { apiUrl, token } }`), chosen by `account`.",
  },
  "hosting:timeoutSeconds": {
    type: "number",
    description: "Idle limit of a request in seconds (default 60).",
  },
  "hosting:maxResponseMiB": {
    type: "number",
    description: "Largest reply accepted, in MiB (default 32).",
  },
  "hosting:allowInsecureHttp": {
    type: "boolean",
    description: "`true` permits plain `http` to a non-loopback host.",
  },
};

const accountType: ObjectTypeSpec = {
  type: "object",
  description: "A named account's connection.",
  properties: {
    apiUrl: { type: "string", description: "The account's API URL." },
    token: { type: "string", secret: true, description: "The account's API token." },
  },
};

/** The repository on GitHub whose releases carry the plugin's archives (.github/workflows/release.yml). */
const REPOSITORY = "pulumi-hosting/pulumi-hosting";

const configVariables = (): Record<string, PropertySpec> =>
  Object.fromEntries(Object.entries(CONFIG).map(([k, v]) => [k.slice(PACKAGE.length + 1), v]));

const isArg = (f: Field) => f.input === "required" || f.input === "optional";

/** A field's schema type, from its declared `type` (`key`: its name in the declaration). */
export type FieldType = (key: string, f: Field) => TypeSpec;

function property(type: TypeSpec, f: Field, asInput: boolean): PropertySpec {
  const spec: PropertySpec = { ...type, description: asInput ? f.doc : (f.outputDoc ?? f.doc) };
  if (f.secret) spec.secret = true;
  if (asInput && f.replaces) spec.replaceOnChanges = true;
  return spec;
}

/** One resource of the schema from its declaration (fields, plus `account`). */
export function resourceSpec(
  description: string,
  d: ResourceDeclaration,
  typeOf: FieldType,
): ResourceSpec {
  const fields = Object.entries({ ...d.fields, account: accountField }).map(
    ([k, f]) => [k, f, typeOf(k, f)] as const,
  );
  const args = fields.filter(([, f]) => isArg(f));
  return {
    description,
    properties: Object.fromEntries(fields.map(([k, f, t]) => [k, property(t, f, false)])),
    // Outputs present whenever the resource exists: the required inputs.
    required: args.filter(([, f]) => f.input === "required").map(([k]) => k),
    inputProperties: Object.fromEntries(args.map(([k, f, t]) => [k, property(t, f, true)])),
    requiredInputs: args.filter(([, f]) => f.input === "required").map(([k]) => k),
  };
}

/**
 * The whole package schema: `resources` by kind, `functions` by name, and `types`, the object
 * types both name (the converter's, beginning with schema-types.ts's `objectTypes`).
 */
export function packageSchema(
  version: string,
  resources: Record<string, ResourceSpec>,
  functions: Record<string, FunctionSpec>,
  objectTypes: Record<string, ObjectTypeSpec>,
) {
  const variables = configVariables();
  const types = { ...objectTypes, Account: accountType };
  return {
    name: PACKAGE,
    displayName: "Hosting",
    version,
    description: "Apps, custom domains, web access and analytics of the Hosting Management API.",
    keywords: ["pulumi", "hosting", "category/cloud"],
    license: "Apache-2.0",
    repository: `https://github.com/${REPOSITORY}`,
    // Where the engine downloads a missing plugin: the release of tag v<version>, asset
    // pulumi-resource-hosting-v<version>-<os>-<arch>.tar.gz (scripts/plugin-archives.js).
    pluginDownloadURL: `github://api.github.com/${REPOSITORY}`,
    meta: { moduleFormat: "(.*)" },
    config: { variables },
    provider: {
      description: "The Hosting provider: its own API URL, token and named accounts.",
      properties: {},
      inputProperties: variables,
    },
    types: Object.fromEntries(Object.entries(types).map(([k, v]) => [tokenOf(k), v])),
    resources: Object.fromEntries(Object.entries(resources).map(([k, r]) => [tokenOf(k), r])),
    functions: Object.fromEntries(Object.entries(functions).map(([k, f]) => [tokenOf(k), f])),
    language: {
      nodejs: { packageName: "@pulumi-hosting/hosting", respectSchemaVersion: true },
      python: {
        packageName: "pulumi_hosting",
        respectSchemaVersion: true,
        pyproject: { enabled: true },
      },
      go: {
        importBasePath: "github.com/pulumi-hosting/pulumi-hosting/sdk/go/hosting",
        generateResourceContainerTypes: false,
        respectSchemaVersion: true,
      },
    },
  };
}
