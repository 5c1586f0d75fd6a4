import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/*
 * docs/reference is generated from the declarations (npm run docs) and committed: regenerated in
 * memory here (from the build pretest makes), it must equal what is committed.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const reference = require("../../scripts/reference-docs") as {
  generate(): Map<string, string>;
  stalePages(pages?: Map<string, string>): string[];
  hoverMismatches(): string[];
  OUT: string;
};
// eslint-disable-next-line @typescript-eslint/no-require-imports
const index = require("../../dist") as Record<string, unknown>;

const pages = reference.generate();

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
    // Each function (getX and getXOutput alike) is called in a ```ts example.
    const examples = [...page.matchAll(/^```ts\n([\s\S]*?)^```/gm)].map((m) => m[1]).join("\n");
    expect([fn, new RegExp(`hosting\\s*\\.${fn}\\(`).test(examples)]).toEqual([fn, true]);
  }
  expect(text).toContain("pickRuntimeVersion");
});

test("each Args interface's hover text says what the declaration says", () => {
  expect(reference.hoverMismatches()).toEqual([]);
});
