import * as fs from "node:fs";
import * as path from "node:path";
import { parse } from "yaml";
import type { Workflow } from "../helpers/workflow";

/*
 * The release and CI workflows are never run from here (no CI runner, no registry login), so
 * they are read and held to what the README promises: a version tag publishes only after a
 * locked install, lint and the whole test suite pass, with provenance, on the Node.js version
 * package.json's engines names as the oldest supported one; its GitHub release carries the
 * plugin's archives (whose names and contents test/package/plugin-archives.test.ts checks); the
 * SDKs are built from the tagged schema and released with it (the wheel and sdist, the Go
 * module's tag).
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
  const job = (name: string) => ({ jobs: { [name]: w.jobs[name] } }) as unknown as Workflow;
  const PUBLISH =
    'npm publish "release/pulumi-hosting-${GITHUB_REF_NAME#v}.tgz" --provenance --access public';

  test("runs on a version tag only, never on a branch push or a pull request", () => {
    expect(Object.keys(w.on)).toEqual(["push"]);
    const push = w.on.push!;
    expect(push.branches).toBeUndefined();
    expect(push.tags).toEqual(["v[0-9]+.[0-9]+.[0-9]+"]);
  });

  test("build, then the GitHub release, then the npm publish: each waits for the one before", () => {
    expect(Object.keys(w.jobs)).toEqual(["build", "github-release", "publish"]);
    expect(w.jobs.build.needs).toBeUndefined();
    expect(w.jobs["github-release"].needs).toBe("build");
    expect(w.jobs.publish.needs).toBe("github-release");
  });

  test("reads the repository by default; only the release job writes, only the publish mints an OIDC token", () => {
    expect(w.permissions).toEqual({ contents: "read" });
    expect(w.jobs.build.permissions).toBeUndefined();
    expect(w.jobs["github-release"].permissions).toEqual({ contents: "write" });
    expect(w.jobs.publish.permissions).toEqual({ contents: "read", "id-token": "write" });
    // The checkout leaves no token in .git/config for the build's scripts to find.
    const checkout = stepsOf(w).filter((s) => s.uses?.startsWith("actions/checkout@"));
    expect(checkout.map((s) => s.with?.["persist-credentials"])).toEqual([false]);
  });

  test("builds as locked, lints, tests, builds the SDKs, then packs what the later jobs release", () => {
    const b = job("build");
    const order = [
      "npm ci",
      "npm run lint",
      "npm test",
      "npm run sdk",
      // The committed Go SDK is what the tagged schema gives, or nothing is released.
      "git diff --exit-code -- sdk/",
      "npm run plugin-archives -- release",
      "npm pack --pack-destination release",
      "mkdir -p release/python && cp sdk/python/dist/* release/python/",
    ].map((c) => indexOf(b, c));
    expect(order).toEqual([...order].sort((x, y) => x - y));
    const upload = w.jobs.build.steps.at(-1);
    expect(upload?.uses).toMatch(/^actions\/upload-artifact@/);
    expect(upload?.with).toMatchObject({ name: "release", path: "release/" });
    // In CI a missing engine fails the run instead of skipping the engine suites.
    expect(w.jobs.build.steps.find((s) => s.run === "npm test")?.env?.REQUIRE_PULUMI_ENGINE).toBe(
      "1",
    );
    // No install of the project that could drift from package-lock.json, in any job.
    expect(runs(w).filter((r) => /^npm (install|i)\b(?! --global npm@)/.test(r))).toEqual([]);
    expect(runs(w).filter((r) => r === "npm ci")).toHaveLength(1);
  });

  test("makes the tag's GitHub release with the six plugin archives (where pluginDownloadURL points)", () => {
    const [create, moduleTag] = runs(job("github-release"));
    expect(create).toMatch(/^gh release create "\$GITHUB_REF_NAME" /);
    expect(create).toContain(" release/pulumi-resource-hosting-*.tar.gz release/python/* ");
    expect(create).toContain('--repo "$GITHUB_REPOSITORY" --verify-tag');
    const env = w.jobs["github-release"].steps.find((s) => s.run === create)?.env;
    expect(env).toEqual({ GH_TOKEN: "${{ github.token }}" });
    // The Go module is sdk/ (sdk/go.mod): Go finds its versions under tags sdk/vX.Y.Z.
    expect(moduleTag).toContain('-f ref="refs/tags/sdk/$GITHUB_REF_NAME"');
  });

  test("publishes the tarball and the Python SDK that were built and tested, with provenance, last", () => {
    expect(runs(job("publish"))).toEqual(["npm install --global npm@^11.5.1", PUBLISH]);
    expect(runs(w).at(-1)).toBe(PUBLISH);
    const pypi = w.jobs.publish.steps.find((s) =>
      (s.uses ?? "").startsWith("pypa/gh-action-pypi-publish@"),
    );
    // From the artifact, by trusted publishing: no password.
    expect(pypi?.with).toEqual({ "packages-dir": "release/python/" });
  });

  test("refuses a tag that does not name package.json's version, before anything is released", () => {
    const check = runs(job("build")).find((r) => r.includes("GITHUB_REF_NAME"));
    expect(check).toContain('require("./package.json").version');
    expect(runs(job("build")).indexOf(check!)).toBeLessThan(indexOf(job("build"), "npm test"));
  });

  test("builds and publishes on the oldest Node.js that package.json's engines admits", () => {
    expect(new Set(nodeVersions(w))).toEqual(new Set([enginesFloor()]));
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
