import { assertType } from "../../src/base/type-equality";
import type { Manifest } from "../../src/provider/app/manifest";
import { manifestOf } from "../../src/provider/app/handler";
import { appFields } from "../../src/provider/app/fields";
import { appInputSchema } from "../../src/provider/app/schema";
import { resourceDeclarations } from "../../src/provider/declarations";
import {
  accountField,
  fieldLists,
  wireOf,
  type SameKeys,
  type SchemaKeys,
  type WireKeys,
} from "../../src/provider/fields";
import type { ResourceSpec } from "../../src/native/package-schema";

/* eslint-disable @typescript-eslint/no-require-imports */
const docs = require("../../scripts/reference-docs") as {
  resourcePage(kind: string, d: object, comment: { text: string }, example: object): string;
};
const { resourceSchema } = require("../../scripts/plugin-schema") as {
  resourceSchema(kind: string, declaration: object): ResourceSpec;
};
/* eslint-enable @typescript-eslint/no-require-imports */

/*
 * A field is declared once. Adding one to a copy of App's declaration (a health-check path the
 * service would read from the manifest as `health_path`) reaches the package schema, the lists
 * diff uses, the manifest and the reference page; the check's rules and the manifest's type must
 * be given it, or the build does not compile.
 */

const withHealthPath = {
  ...appFields,
  healthPath: {
    doc: "The path the platform probes for health, e.g. `/healthz`. Changing it replaces the app.",
    type: "string",
    input: "optional",
    replaces: true,
    platformDefault: true,
    wire: "health_path",
    from: "health_path",
  },
} as const;

test("the new field is in the package schema: an input that replaces, an output", () => {
  const spec = resourceSchema("App", { ...resourceDeclarations.App, fields: withHealthPath });
  expect(spec.inputProperties.healthPath).toEqual({
    type: "string",
    description: withHealthPath.healthPath.doc,
    replaceOnChanges: true,
  });
  expect(spec.properties.healthPath.type).toBe("string");
  // The untouched declaration has no such property.
  expect(resourceSchema("App", resourceDeclarations.App).inputProperties).not.toHaveProperty(
    "healthPath",
  );
});

test("diff and check lists: a change to it replaces the app, an unset one is the platform's", () => {
  const lists = fieldLists(withHealthPath);
  expect(lists.schemaKeys).toContain("healthPath");
  expect(lists.replaceOnChange).toContain("healthPath");
  expect(lists.platformDefaults).toContain("healthPath");
  expect(lists.live).toContain("healthPath");
});

test("the manifest carries it under its wire key; the real App's manifest is unchanged", () => {
  const inputs = { source: "./app", name: "web", healthPath: "/healthz", customCommand: "run" };
  expect(wireOf(withHealthPath, inputs)).toEqual({
    name: "web",
    custom_command: "run",
    health_path: "/healthz",
  });
  expect(manifestOf(appInputSchema.parse({ source: "./app", name: "web", ram: 256 }))).toEqual({
    name: "web",
    ram: 256,
  });
});

test("the compiler holds the check's rules and the manifest's type to the declaration", () => {
  // The real declaration agrees with both.
  assertType<SameKeys<keyof typeof appInputSchema.shape, SchemaKeys<typeof appFields>>>(true);
  assertType<SameKeys<keyof Manifest, WireKeys<typeof appFields>>>(true);
  // With the new field, both fail to compile until the rule and the manifest key are added.
  // @ts-expect-error the check has no rule for healthPath
  assertType<SameKeys<keyof typeof appInputSchema.shape, SchemaKeys<typeof withHealthPath>>>(true);
  // @ts-expect-error the manifest type has no health_path
  assertType<SameKeys<keyof Manifest, WireKeys<typeof withHealthPath>>>(true);
});

test("the reference page lists it as an argument that replaces the resource", () => {
  const page = docs.resourcePage(
    "App",
    { ...resourceDeclarations.App, fields: withHealthPath, accountDoc: accountField.doc },
    { text: "An app." },
    { typescript: "", python: "", go: "", yaml: "" },
  );
  expect(page).toContain(
    "- `healthPath` (Python `health_path`, Go `HealthPath`; Optional, `string`): The path the " +
      "platform probes for health",
  );
  expect(page).toMatch(/A change to .*`healthPath`.* replaces the resource/);
});

test("a declared type the schema cannot express fails generation, naming it", () => {
  const typed = (type: string) =>
    resourceSchema("App", {
      ...resourceDeclarations.App,
      fields: { ...appFields, probes: { ...withHealthPath.healthPath, type } },
    }).properties.probes;
  expect(() => typed("Map<string, Date>")).toThrow(
    /App\.probes \(declared type "Map<string, Date>"\): no package-schema type for Map<string, Date>/,
  );
  expect(() => typed("DnsRecrd[]")).toThrow(/App\.probes .*Cannot find name 'DnsRecrd'/);
  // The same converter as every other type: named object types by their schema names.
  expect(typed("string | null")).toMatchObject({ type: "string" });
  expect(typed("DnsRecord[]")).toMatchObject({
    type: "array",
    items: { $ref: "#/types/hosting:index:DnsRecord" },
  });
  expect(typed("ValidationRecordOutput")).toMatchObject({
    $ref: "#/types/hosting:index:ValidationRecord",
  });
});
