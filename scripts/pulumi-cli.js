#!/usr/bin/env node
/*
 * Gives the tests a real Pulumi CLI, in one step:
 *   1. `HOSTING_PULUMI_BIN` (a folder) or the `pulumi` on PATH, when there is one;
 *   2. else the pinned CLI built from Pulumi's Go modules into the project's cache folder
 *      (HOSTING_CACHE_DIR, else XDG's; once per machine, made and checked as cache-entry.js
 *      says), with Pulumi's dynamic-provider plugin script and the Node.js language host beside
 *      it;
 *   3. else it says exactly what is missing, and the engine tests report themselves skipped.
 * Then the YAML language host: beside the CLI, on PATH, or built once into the cache.
 *
 * `node scripts/pulumi-cli.js` ensures the CLI (building it if needed) and prints its folder.
 * `REQUIRE_PULUMI_ENGINE=1` (set by .ci/run) turns "missing" into a failure.
 * Tests call `locate()`, which never builds.
 */
const { execFileSync, spawnSync } = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");
const { ensureEntry, entryReady, toolCache } = require("./cache-entry");

/** The CLI release this project is tested with. */
const PULUMI_VERSION = "3.274.1";
/*
 * The Node.js language host is a Go module of its own, untagged, and the module proxy reachable
 * here does not serve it at any commit. Up to 3.68.0 it was a package of the sdk module, which
 * is served: that build runs `@pulumi/pulumi/cmd/run` from the program's own node_modules, so
 * the program runtime is still the installed @pulumi/pulumi's.
 */
const LANGUAGE_HOST_SDK_VERSION = "3.68.0";
/*
 * The YAML language host, a Go module of its own that the proxy serves: YAML programs of the
 * native plugin (test/native/yaml-program.test.ts). A Pulumi release ships it beside the CLI.
 */
const YAML_VERSION = "1.25.0";
const YAML_HOST = "github.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml";
const PKG = "github.com/pulumi/pulumi/pkg/v3";
const SDK = "github.com/pulumi/pulumi/sdk/v3";
const VERSION_VAR = "github.com/pulumi/pulumi/sdk/v3/go/common/version.Version";

const cacheRoot = () => path.join(toolCache(), `pulumi-v${PULUMI_VERSION}`);
const yamlRoot = () => path.join(toolCache(), `pulumi-yaml-v${YAML_VERSION}`);

const binDirOf = (root) => path.join(root, "bin");
/** A built CLI is trusted when it runs and says it is the pinned release. */
const cliWorks = (root) => versionOf(path.join(binDirOf(root), "pulumi")) === `v${PULUMI_VERSION}`;
const yamlWorks = (root) => isExecutable(path.join(binDirOf(root), "pulumi-language-yaml"));

function versionOf(pulumi) {
  const r = spawnSync(pulumi, ["version"], {
    encoding: "utf8",
    env: { ...process.env, PULUMI_SKIP_UPDATE_CHECK: "true" },
    timeout: 30_000,
  });
  return r.status === 0 ? r.stdout.trim() : undefined;
}

function isExecutable(file) {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function onPath(name) {
  return (process.env.PATH || "")
    .split(path.delimiter)
    .find((dir) => dir && isExecutable(path.join(dir, name)));
}

/**
 * Where the CLI is, without building anything.
 * @returns {{ binDir: string, version: string, source: string } | { missing: string }}
 */
function locate() {
  const explicit = process.env.HOSTING_PULUMI_BIN;
  if (explicit) {
    const version = versionOf(path.join(explicit, "pulumi"));
    if (!version) return { missing: `HOSTING_PULUMI_BIN=${explicit} holds no working pulumi` };
    return { binDir: explicit, version, source: "HOSTING_PULUMI_BIN" };
  }
  const dir = onPath("pulumi");
  if (dir) {
    const version = versionOf(path.join(dir, "pulumi"));
    if (version) return { binDir: dir, version, source: "PATH" };
  }
  const root = cacheRoot();
  if (entryReady(root, cliWorks)) {
    return { binDir: binDirOf(root), version: `v${PULUMI_VERSION}`, source: "cache" };
  }
  return {
    missing:
      `no Pulumi CLI: none on PATH and none built in ${root}. ` +
      "Run `node scripts/pulumi-cli.js` (needs Go 1.26 and the Go module proxy).",
  };
}

/**
 * Where `pulumi-language-yaml` is, without building: beside the CLI, on PATH, or in the cache.
 * @returns {{ binDir: string } | { missing: string }}
 */
function locateYaml(cliBinDir) {
  const yamlBin = binDirOf(yamlRoot());
  for (const dir of [cliBinDir, onPath("pulumi-language-yaml")]) {
    if (dir && isExecutable(path.join(dir, "pulumi-language-yaml"))) return { binDir: dir };
  }
  if (entryReady(yamlRoot(), yamlWorks)) return { binDir: yamlBin };
  return {
    missing:
      `no pulumi-language-yaml beside the CLI, on PATH or built in ${yamlBin}. ` +
      "Run `node scripts/pulumi-cli.js` (needs Go 1.26 and the Go module proxy).",
  };
}

const say = (msg) => process.stderr.write(`[pulumi-cli] ${msg}\n`);

function run(cmd, args, cwd, extraEnv = {}) {
  const started = Date.now();
  say(`${cmd} ${args.join(" ")}`);
  const r = spawnSync(cmd, args, {
    cwd,
    stdio: ["ignore", "pipe", "pipe"],
    encoding: "utf8",
    env: { ...process.env, GOFLAGS: "-mod=mod", ...extraEnv },
    maxBuffer: 64 * 1024 * 1024,
  });
  if (r.status !== 0) {
    throw new Error(
      `${cmd} ${args.join(" ")} failed (${r.error?.message ?? `exit ${r.status}`}):\n` +
        `${(r.stderr || "").slice(-4000)}`,
    );
  }
  say(`  done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return r.stdout;
}

/** A writable copy of a downloaded module, `replace` of the sdk dropped, the sdk pinned. */
function moduleCopy(work, modulePath, version, name) {
  const info = JSON.parse(
    run("go", ["mod", "download", "-json", `${modulePath}@${version}`], work),
  );
  if (info.Error) throw new Error(`go mod download ${modulePath}@${version}: ${info.Error}`);
  const dir = path.join(work, name);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.cpSync(info.Dir, dir, { recursive: true });
  execFileSync("chmod", ["-R", "u+w", dir]);
  return dir;
}

function build(root) {
  const work = path.join(root, "work");
  const bin = binDirOf(root);
  fs.mkdirSync(work, { recursive: true });
  fs.mkdirSync(bin, { recursive: true });
  const v = `v${PULUMI_VERSION}`;

  say(`building Pulumi CLI ${v} from ${PKG} (first time on this machine: several minutes)`);
  const pkg = moduleCopy(work, PKG, v, "pkg");
  run("go", ["mod", "edit", `-dropreplace=${SDK}`, `-require=${SDK}@${v}`], pkg);
  run("go", ["mod", "download", `${SDK}@${v}`], pkg);
  run("go", ["get", `${SDK}@${v}`], pkg);
  const ldflags = `-X ${VERSION_VAR}=${v}`;
  // -trimpath: the build does not depend on where the cache folder is, so Go's own build cache
  // serves a rebuild in another folder (CI makes the project's caches in a fresh one each run).
  run(
    "go",
    ["build", "-trimpath", "-ldflags", ldflags, "-o", path.join(bin, "pulumi"), "./cmd/pulumi"],
    pkg,
  );

  const hostV = `v${LANGUAGE_HOST_SDK_VERSION}`;
  say(`building pulumi-language-nodejs from ${SDK}@${hostV}`);
  const sdkOld = moduleCopy(work, SDK, hostV, "sdk-language-host");
  const hostFlags = `-X ${VERSION_VAR}=${hostV}`;
  run(
    "go",
    [
      "build",
      "-trimpath",
      "-ldflags",
      hostFlags,
      "-o",
      path.join(bin, "pulumi-language-nodejs"),
      "./nodejs/cmd/pulumi-language-nodejs",
    ],
    sdkOld,
  );

  // Pulumi's own plugin script for dynamic providers, from the sdk module of the same release.
  const sdk = moduleCopy(work, SDK, v, "sdk");
  const script = path.join(bin, "pulumi-resource-pulumi-nodejs");
  fs.copyFileSync(path.join(sdk, "nodejs", "dist", "pulumi-resource-pulumi-nodejs"), script);
  fs.chmodSync(script, 0o755);

  fs.rmSync(work, { recursive: true, force: true });
  const version = versionOf(path.join(bin, "pulumi"));
  if (version !== v) throw new Error(`the built pulumi reports version "${version}", not ${v}`);
}

function buildYaml(root) {
  const bin = binDirOf(root);
  fs.mkdirSync(bin, { recursive: true });
  say(`building pulumi-language-yaml v${YAML_VERSION} from ${YAML_HOST}`);
  run("go", ["install", `${YAML_HOST}@v${YAML_VERSION}`], root, { GOBIN: bin });
}

/** Finds or builds the CLI. Returns what `locate()` returns. */
function ensure() {
  const found = locate();
  if (!("missing" in found)) return found;
  if (!onPath("go")) {
    return { missing: `${found.missing} Go is not on PATH, so it cannot be built here.` };
  }
  const started = Date.now();
  // One build per machine, made in place and checked before it is trusted (cache-entry.js).
  ensureEntry(cacheRoot(), build, { check: cliWorks, say });
  const built = locate();
  if (!("missing" in built)) {
    say(`ready in ${((Date.now() - started) / 1000).toFixed(0)} s: ${built.binDir}`);
  }
  return built;
}

/** Finds or builds the YAML language host. Returns what `locateYaml()` returns. */
function ensureYaml(cliBinDir) {
  const found = locateYaml(cliBinDir);
  if (!("missing" in found)) return found;
  if (!onPath("go")) return { missing: `${found.missing} Go is not on PATH.` };
  try {
    ensureEntry(yamlRoot(), buildYaml, { check: yamlWorks, say });
  } catch (err) {
    return { missing: `pulumi-language-yaml could not be built: ${err.message}` };
  }
  return locateYaml(cliBinDir);
}

module.exports = { locate, locateYaml, ensure, PULUMI_VERSION, cacheRoot };

if (require.main === module) {
  let found;
  try {
    found = ensure();
  } catch (err) {
    say(`BUILD FAILED: ${err.message}`);
    process.exit(1);
  }
  if ("missing" in found) {
    const banner = "!".repeat(78);
    say(`${banner}\n[pulumi-cli] ENGINE MISSING: ${found.missing}\n[pulumi-cli] ${banner}`);
    if (process.env.REQUIRE_PULUMI_ENGINE === "1") process.exit(1);
    process.exit(0);
  }
  say(`pulumi ${found.version} (${found.source}) in ${found.binDir}`);
  const yaml = ensureYaml(found.binDir);
  if ("missing" in yaml) {
    say(`YAML LANGUAGE HOST MISSING: ${yaml.missing}`);
    if (process.env.REQUIRE_PULUMI_ENGINE === "1") process.exit(1);
  } else say(`pulumi-language-yaml in ${yaml.binDir}`);
  process.stdout.write(`${found.binDir}\n`);
}
