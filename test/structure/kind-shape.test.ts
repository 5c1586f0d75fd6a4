import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import * as pkg from "../../src";
import { resourceDeclarations } from "../../src/provider/declarations";
import type { ResourceKind } from "../../src/provider/resource-kind";

/*
 * Every resource kind has the shape CONTRIBUTING's "Add a resource kind" states: a folder of its
 * own under src/provider/ holding fields.ts (its declaration), schema.ts (its check rules),
 * handler.ts (what create, read, update and delete do) and resource.ts (its class), and these are
 * the files the package's tables take the kind from. What kinds of one family share (actions/,
 * toggles/) is beside them, no kind's part.
 */

const PROVIDER = resolve(__dirname, "../../src/provider");

/** Each kind's folder (the compiler asks for a new kind here). */
const FOLDERS = {
  App: "app",
  CustomDomain: "custom-domain",
  AppWebAccess: "web-access",
  AppAnalytics: "analytics",
  VmStart: "vm-start",
  DatabaseSetupRetry: "database-setup-retry",
  BackupDeletion: "backup-deletion",
} satisfies Record<ResourceKind, string>;

const kinds = Object.keys(resourceDeclarations) as ResourceKind[];
const PARTS = ["fields.ts", "schema.ts", "handler.ts", "resource.ts"];

/** The exports of one part of a kind's folder. */
const part = async (kind: ResourceKind, name: string) =>
  (await import(join(PROVIDER, FOLDERS[kind], name))) as Record<string, unknown>;

test("the recipe states the shape this test holds every kind to", () => {
  const text = readFileSync(resolve(__dirname, "../../CONTRIBUTING.md"), "utf8");
  const recipe = text.slice(text.indexOf("### Add a resource kind"));
  const stated = recipe.slice(0, recipe.indexOf("\n### ", 1));
  for (const file of PARTS) expect([file, stated.includes(`\`${file}\``)]).toEqual([file, true]);
  expect(stated).toContain("`src/provider/<kind>/`");
});

test.each(kinds)(
  "%s is a folder of its own with the four parts, and the tables use them",
  async (kind) => {
    const files = readdirSync(join(PROVIDER, FOLDERS[kind]));
    expect(PARTS.filter((p) => !files.includes(p))).toEqual([]);
    const declared = resourceDeclarations[kind];
    // The declaration and the rules the package's tables hold are the folder's fields.ts and
    // schema.ts exports.
    expect(Object.values(await part(kind, "fields")).includes(declared.fields)).toBe(true);
    expect(Object.values(await part(kind, "schema")).includes(declared.inputs)).toBe(true);
    // Its handler checks with those rules.
    const handlers = Object.values(await part(kind, "handler")).filter(
      (v) => typeof v === "object" && v !== null && "schema" in v && "create" in v,
    );
    expect(handlers.map((h) => (h as { schema: unknown }).schema === declared.inputs)).toEqual([
      true,
    ]);
    // The class the package exports under the kind's name is resource.ts's.
    expect((await part(kind, "resource"))[kind]).toBe((pkg as Record<string, unknown>)[kind]);
  },
);
