import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/*
 * docs/reference is generated from the declarations (npm run docs) and committed: regenerated in
 * memory here (from the build pretest makes), it must equal what is committed. The examples are
 * taken as the pages hold them: that they are what their YAML sources give needs Pulumi's
 * program generators (Go tools), and is test/native/reference-examples.test.ts's to hold.
 */
type Example = Partial<Record<"typescript" | "python" | "go" | "yaml", string>>;
// eslint-disable-next-line @typescript-eslint/no-require-imports
const reference = require("../../scripts/reference-docs") as {
  generate(examples: Map<string, Example | string>): Map<string, string>;
  examplesOfPages(): Map<string, Example>;
  stalePages(pages?: Map<string, string>): string[];
  hoverMismatches(): string[];
  OUT: string;
};
// eslint-disable-next-line @typescript-eslint/no-require-imports
const index = require("../../dist") as Record<string, unknown>;

const committedExamples = reference.examplesOfPages();
const pages = reference.generate(committedExamples);

test("the committed pages are what the declarations give (run npm run docs when this fails)", () => {
  expect(reference.stalePages(pages)).toEqual([]);
});

test("one page per resource class, headed by its name, naming every argument and output", () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { resourceDeclarations } = require("../../dist/provider/declarations") as {
    resourceDeclarations: Record<string, { fields: Record<string, { input?: string }> }>;
  };
  for (const [kind, { fields }] of Object.entries(resourceDeclarations)) {
    expect(typeof index[kind]).toBe("function");
    const page = readFileSync(join(reference.OUT, `${kind}.md`), "utf8");
    expect(page.split("\n")[0]).toBe(`# ${kind}`);
    for (const section of ["## Example Usage", "## Argument Reference", "## Attribute Reference"]) {
      expect(page).toContain(section);
    }
    expect(page).toContain("## Adoption (in place of import)");
    for (const field of [...Object.keys(fields), "account"]) expect(page).toContain(`\`${field}\``);
  }
});

test("every page but a TypeScript-only helper's shows its example in TypeScript, Python, Go and YAML", () => {
  const languages = (name: string) => Object.keys(committedExamples.get(name) ?? {}).sort();
  const pageNames = readdirSync(reference.OUT)
    .filter((f) => f.endsWith(".md") && f !== "README.md")
    .map((f) => f.slice(0, -".md".length));
  expect(pageNames.length).toBeGreaterThan(15);
  for (const name of pageNames.filter((n) => n !== "pickRuntimeVersion")) {
    expect([name, languages(name)]).toEqual([name, ["go", "python", "typescript", "yaml"]]);
  }
  expect(pages.get("pickRuntimeVersion.md")).toMatch(/^```ts\n/m);
});

test("every exported data source has a page with an example", () => {
  const functions = Object.keys(index).filter(
    (n) => /^get[A-Z]/.test(n) || n === "pickRuntimeVersion",
  );
  expect(functions.length).toBeGreaterThan(10);
  const text = readdirSync(reference.OUT)
    .map((f) => readFileSync(join(reference.OUT, f), "utf8"))
    .join("\n");
  for (const fn of functions) {
    const base = fn.replace(/Output$/, "");
    const page = pages.get(`${base}.md`) ?? "";
    expect([fn, page.split("\n")[0]]).toEqual([fn, `# ${base}`]);
    // The function is called, as getX or getXOutput (the generator picks the one that fits).
    const examples = [...page.matchAll(/^```ts\n([\s\S]*?)^```/gm)].map((m) => m[1]).join("\n");
    const called = new RegExp(`hosting\\s*\\.${base}(Output)?\\(`).test(examples);
    expect([fn, called]).toEqual([fn, true]);
  }
  expect(text).toContain("pickRuntimeVersion");
});

test("each Args interface's hover text says what the declaration says", () => {
  expect(reference.hoverMismatches()).toEqual([]);
});
