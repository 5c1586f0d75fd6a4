import { readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";

/*
 * Every emulator a test starts in its own process comes from the one fixture
 * (test/helpers/emulator.ts: useEmulator, useEmulators), which closes it after the file however
 * the test ended. The files below call startEmulator in another process, which the fixture
 * cannot reach; each says why.
 */

const TEST = resolve(__dirname, "..");

const ELSEWHERE: Record<string, string> = {
  "helpers/emulator.ts": "the fixture itself",
  "emulator/stop.test.ts": "a child process on dist/: what stop() leaves holding its event loop",
  "package/tarball.test.ts": "a child process on the installed tarball: the package's own export",
  "structure/field-recipe.test.ts": "a child process on a copy of src/ with a field added",
  "types/fixtures/program.ts": "a user's program, compiled against the packed package, not run",
};

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    if (e.name === ".work" || e.name === "node_modules") return [];
    const path = join(dir, e.name);
    if (e.isDirectory()) return filesUnder(path);
    return /\.(ts|js)$/.test(e.name) ? [path] : [];
  });
}

test("no test starts an emulator but through the fixture (or in another process, saying why)", () => {
  const callers = filesUnder(TEST)
    .filter((f) => /\bstartEmulator\(/.test(readFileSync(f, "utf8")))
    .map((f) => relative(TEST, f).split("\\").join("/"))
    .filter((f) => f !== "structure/one-emulator-fixture.test.ts")
    .sort();
  expect(callers).toEqual(Object.keys(ELSEWHERE).sort());
});
