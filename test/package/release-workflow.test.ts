import * as fs from "node:fs";
import * as path from "node:path";
import { parse } from "yaml";
import type { Workflow } from "../helpers/workflow";

/*
 * The release and CI workflows are never run from here (no CI runner, no registry login), so
 * they are read and held to what the README promises: a version tag publishes only after a
 * locked install, lint and the whole test suite pass, with provenance, on the Node.js version
 * package.json's engines names as the oldest supported one; the SDKs are built from the tagged
 * schema and published with it (the wheel and sdist, the Go module's tag).
 */

const ROOT = path.resolve(__dirname, "..", "..");

const read = (file: string) =>
  parse(fs.readFileSync(path.join(ROOT, ".github", "workflows", file), "utf8")) as Workflow;
const stepsOf = (w: Workflow) => Object.values(w.jobs).flatMap((j) => j.steps);
const runs = (w: Workflow) => stepsOf(w).flatMap((s) => (s.run ? [s.run.trim()] : []));
/** The index of the one step that runs exactly `command`. */
const indexOf = (w: Workflow, command: string) => {
  const found = runs(w).filter((r) => r === command);
  expect(found).toHaveLength(1);
  return runs(w).indexOf(command);
};

/** The oldest Node.js version `engines.node` admits (it is written as `>=X.Y.Z`). */
function enginesFloor(): string {
  const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8"));
  const m = /^>=\s*(\d+\.\d+\.\d+)$/.exec(manifest.engines.node);
  if (!m) throw new Error(`engines.node is ${manifest.engines.node}, not ">=X.Y.Z"`);
  return m[1];
}

const nodeVersions = (w: Workflow) =>
  stepsOf(w)
    .filter((s) => s.uses?.startsWith("actions/setup-node@"))
    .map((s) => String(s.with?.["node-version"]));

describe(".github/workflows/release.yml", () => {
  const w = read("release.yml");

  test("runs on a version tag only, never on a branch push or a pull request", () => {
    expect(Object.keys(w.on)).toEqual(["push"]);
    const push = w.on.push!;
    expect(push.branches).toBeUndefined();
    expect(push.tags).toEqual(["v[0-9]+.[0-9]+.[0-9]+"]);
  });

  test("may mint an OIDC token, make the release and push the module tag; nothing else", () => {
    expect(w.permissions).toEqual({ contents: "write", "id-token": "write" });
  });

  test("installs as locked, lints, tests, builds the SDKs, then publishes with provenance", () => {
    const ci = indexOf(w, "npm ci");
    const lint = indexOf(w, "npm run lint");
    const test = indexOf(w, "npm test");
    const sdk = indexOf(w, "npm run sdk");
    const unchanged = indexOf(w, "git diff --exit-code -- sdk/");
    const publish = indexOf(w, "npm publish --provenance --access public");
    const order = [ci, lint, test, sdk, unchanged, publish];
    expect(order).toEqual([...order].sort((a, b) => a - b));
    // Every publish (npm, the wheel, the release, the module tag) after the checks.
    const publishing = stepsOf(w).filter(
      (s) =>
        /npm publish|gh release|git push/.test(s.run ?? "") ||
        (s.uses ?? "").startsWith("pypa/gh-action-pypi-publish@"),
    );
    expect(publishing).toHaveLength(4);
    for (const s of publishing) expect(stepsOf(w).indexOf(s)).toBeGreaterThan(unchanged);
    // In CI a missing engine fails the run instead of skipping the engine suites.
    expect(stepsOf(w).find((s) => s.run === "npm test")?.env?.REQUIRE_PULUMI_ENGINE).toBe("1");
    // No install of the project that could drift from package-lock.json.
    expect(runs(w).filter((r) => /^npm (install|i)\b(?! --global npm@)/.test(r))).toEqual([]);
  });

  test("refuses a tag that does not name package.json's version", () => {
    const check = runs(w).find((r) => r.includes("GITHUB_REF_NAME"));
    expect(check).toContain('require("./package.json").version');
    expect(runs(w).indexOf(check!)).toBeLessThan(
      indexOf(w, "npm publish --provenance --access public"),
    );
  });

  test("builds on the oldest Node.js that package.json's engines admits", () => {
    expect(nodeVersions(w)).toEqual([enginesFloor()]);
  });

  test("publishes the wheel and sdist npm run sdk built, and tags the Go module", () => {
    const pypi = stepsOf(w).find((s) => (s.uses ?? "").startsWith("pypa/gh-action-pypi-publish@"));
    expect(pypi?.with?.["packages-dir"]).toBe("sdk/python/dist/");
    expect(pypi?.with).not.toHaveProperty("password");
    const release = runs(w).find((r) => r.startsWith("gh release create"));
    expect(release).toContain("sdk/python/dist/*");
    const tag = runs(w).find((r) => r.includes("git push"));
    // The module is sdk/ (sdk/go.mod): Go finds its versions under tags sdk/vX.Y.Z.
    expect(tag).toContain('git tag "sdk/$GITHUB_REF_NAME"');
  });
});

describe(".github/workflows/ci.yml", () => {
  const w = read("ci.yml");

  test("runs on pull requests and on pushes to main", () => {
    expect(w.on).toHaveProperty("pull_request");
    expect(w.on.push?.branches).toEqual(["main"]);
  });

  test("installs as locked, lints and runs every test, on the engines floor among others", () => {
    expect(indexOf(w, "npm ci")).toBeLessThan(indexOf(w, "npm run lint"));
    expect(indexOf(w, "npm run lint")).toBeLessThan(indexOf(w, "npm test"));
    const matrix = Object.values(w.jobs).flatMap((j) => j.strategy?.matrix?.["node-version"] ?? []);
    expect(matrix).toContain(enginesFloor());
    expect(w.permissions).toEqual({ contents: "read" });
  });

  test("sets up Go for the pinned Pulumi CLI and fails rather than skip the engine suite", () => {
    const steps = stepsOf(w);
    expect(steps.some((s) => (s.uses ?? "").startsWith("actions/setup-go@"))).toBe(true);
    const test = steps.find((s) => s.run === "npm test");
    expect(test?.env?.REQUIRE_PULUMI_ENGINE).toBe("1");
  });
});
