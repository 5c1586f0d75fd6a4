import { readdirSync } from "node:fs";
import { join, relative, resolve } from "node:path";

/*
 * The tests' shared modules live in one folder, test/helpers/. Elsewhere under test/ a code file
 * is a test (*.test.ts) or part of a fixture a test runs or reads (a program, a golden state,
 * a stand-in package): the folders below.
 */

const TEST = resolve(__dirname, "..");

const FIXTURE_FOLDERS = [
  "e2e/fixtures/",
  "engine/fixtures/",
  "native/go/",
  "native/python/",
  "package/fixtures/",
  "types/cloudflare-stub/",
  "types/fixtures/",
  "upgrade/golden/",
  "upgrade/program/",
];

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    if (e.name === ".work" || e.name === "node_modules") return [];
    const path = join(dir, e.name);
    return e.isDirectory() ? filesUnder(path) : [path];
  });
}

test("every helper module is in test/helpers; other folders hold tests and fixtures", () => {
  const strays = filesUnder(TEST)
    .map((f) => relative(TEST, f).split("\\").join("/"))
    .filter((f) => /\.(ts|js|mjs|cjs)$/.test(f) && !f.endsWith(".test.ts"))
    .filter((f) => !f.startsWith("helpers/"))
    .filter((f) => !FIXTURE_FOLDERS.some((folder) => f.startsWith(folder)));
  expect(strays).toEqual([]);
});
