import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "../helpers/pulumi-parts";
import { testIf } from "../helpers/test-if";
import { goMissing } from "../helpers/go-tool";

/*
 * The reference pages' examples are what their YAML sources give (scripts/reference-programs.js:
 * pulumi-yaml's converter, then Pulumi's program generators, both Go tools built once per
 * machine), and the few adaptations made to the generators' output do what they say. The
 * examples run against the emulator in reference-run-<language>.test.ts.
 */

type Language = "typescript" | "python" | "go" | "yaml";
type Example = Record<Language, string>;
interface Facts {
  sdkPackage: string;
  ownPackage: string;
  lists: string[];
  lookups: string[];
}
// eslint-disable-next-line @typescript-eslint/no-require-imports
const programs = require("../../scripts/reference-programs") as {
  SOURCES: string;
  generate(texts?: Map<string, string>): Map<string, Example>;
  adaptationFacts(): Facts;
  adaptTypeScript(text: string, facts: Facts): string;
  adaptGo(text: string, facts: Facts): string;
  shownYaml(text: string): string;
};
// eslint-disable-next-line @typescript-eslint/no-require-imports
const reference = require("../../scripts/reference-docs") as {
  examplesOfPages(): Map<string, Partial<Example>>;
};

testIf(!goMissing, goMissing ?? "")(
  "every page's example is what its YAML source gives, in every language",
  () => {
    // Regenerated into the cache (entries keyed by the tools, the schema and the sources), so
    // this costs the generators' run only when one of them changed.
    const generated = programs.generate();
    const committed = reference.examplesOfPages();
    const stale: string[] = [];
    for (const [page, example] of generated) {
      for (const [language, text] of Object.entries(example)) {
        if (committed.get(page)?.[language as Language] !== text)
          stale.push(`${page} (${language})`);
      }
    }
    if (stale.length > 0) {
      throw new Error(`docs/reference is stale: ${stale.join(", ")}. Run: npm run docs`);
    }
    // Every page but a TypeScript-only helper's has a source.
    const pages = [...committed.keys()].filter((p) => Object.keys(committed.get(p)!).length > 0);
    expect(pages.sort()).toEqual([...generated.keys()].sort());
  },
  1_500_000,
);

describe("the adaptations of the generators' output", () => {
  const facts: Facts = {
    sdkPackage: "@pulumi-hosting/hosting",
    ownPackage: "pulumi-hosting",
    lists: ["getApps"],
    lookups: ["App"],
  };

  test("what they rest on: the schema's list results and packages, the Go SDK's Lookup names", () => {
    const real = programs.adaptationFacts();
    expect(real.sdkPackage).toBe("@pulumi-hosting/hosting");
    expect(real.ownPackage).toBe("pulumi-hosting");
    expect(real.lists.sort()).toEqual([
      "getAppDeployments",
      "getApps",
      "getDatabases",
      "getRuntimeVersions",
    ]);
    expect(real.lookups).toEqual(["App"]);
    // `.items` is dropped from TypeScript: no other property of the schema is named so.
    const schema = JSON.parse(readFileSync(join(ROOT, "plugin", "schema.json"), "utf8")) as object;
    const holdingItems: string[] = [];
    const walk = (node: unknown, at: string) => {
      if (node === null || typeof node !== "object") return;
      const { properties } = node as { properties?: Record<string, unknown> };
      if (properties && typeof properties === "object" && "items" in properties) {
        holdingItems.push(at);
      }
      for (const [k, v] of Object.entries(node)) walk(v, `${at}/${k}`);
    };
    walk(schema, "");
    expect(holdingItems.sort()).toEqual(
      real.lists.map((fn) => `/functions/hosting:index:${fn}/outputs`).sort(),
    );
  });

  test("TypeScript: this package in place of the SDK's, a list data source's list itself", () => {
    const generated = [
      'import * as pulumi from "@pulumi/pulumi";',
      'import * as hosting from "@pulumi-hosting/hosting";',
      "",
      "const all = hosting.getAppsOutput({});",
      "export const firstAppId = all.items[0].id;",
      "",
    ].join("\n");
    const adapted = programs.adaptTypeScript(generated, facts);
    expect(adapted).toContain('import * as hosting from "pulumi-hosting";');
    expect(adapted).toContain("export const firstAppId = all[0].id;");
    expect(adapted).not.toContain("@pulumi-hosting/hosting");
    // A program calling no list data source keeps every `.items`.
    const other = generated.replace("getAppsOutput", "getAppOutput");
    expect(programs.adaptTypeScript(other, facts)).toContain("all.items[0].id");
    expect(() => programs.adaptTypeScript("const x = 1;\n", facts)).toThrow(
      /lacks import \* as hosting from "@pulumi-hosting\/hosting"/,
    );
  });

  test("Go: the SDK's LookupX for the generator's GetX, and nothing else renamed", () => {
    const generated = [
      "docsInfo := hosting.GetAppOutput(ctx, hosting.GetAppOutputArgs{",
      "info, err := hosting.GetApp(ctx, &hosting.GetAppArgs{",
      "traffic := hosting.GetAppDashboardOutput(ctx, hosting.GetAppDashboardOutputArgs{",
      "all := hosting.GetAppsOutput(ctx, hosting.GetAppsOutputArgs{}, nil)",
    ].join("\n");
    expect(programs.adaptGo(generated, facts).split("\n")).toEqual([
      "docsInfo := hosting.LookupAppOutput(ctx, hosting.LookupAppOutputArgs{",
      "info, err := hosting.LookupApp(ctx, &hosting.LookupAppArgs{",
      "traffic := hosting.GetAppDashboardOutput(ctx, hosting.GetAppDashboardOutputArgs{",
      "all := hosting.GetAppsOutput(ctx, hosting.GetAppsOutputArgs{}, nil)",
    ]);
  });

  test("YAML: the source as it is, less its comment lines (notes for maintainers)", () => {
    const source = "# why it is worded so\nname: x\nruntime: yaml # kept\n  # indented\n";
    expect(programs.shownYaml(source)).toBe("name: x\nruntime: yaml # kept\n");
  });

  test("every source is a page's: no stray YAML in scripts/reference-examples", () => {
    const pages = readdirSync(join(ROOT, "docs", "reference")).map((f) => f.replace(/\.md$/, ""));
    const sources = readdirSync(programs.SOURCES).map((f) => f.replace(/\.yaml$/, ""));
    expect(sources.filter((s) => !pages.includes(s))).toEqual([]);
  });
});
