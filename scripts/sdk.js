/*
 * The SDKs of the native plugin, from plugin/schema.json (the build writes it):
 *
 * - Go: committed at sdk/go/hosting (module github.com/pulumi-hosting/pulumi-hosting/sdk, whose
 *   go.mod and go.sum are in sdk/), so `go get` finds it in this repository;
 * - Python: a wheel and an sdist in sdk/python/dist/ (git-ignored), which the release attaches.
 *
 * `pulumi package gen-sdk` needs each language's host with GeneratePackage, which none that
 * builds here has (the v3.68 hosts); scripts/sdkgen calls the same generators (pkg/v3/codegen,
 * the CLI's v3.274.1) directly. Every tool and output is an entry of scripts/cache-entry.js,
 * keyed by what it is made from, so only the first run on a machine pays.
 *
 * Usage: node scripts/sdk.js            writes sdk/go/hosting and sdk/python/dist/
 *        node scripts/sdk.js --check    fails when sdk/go/hosting is not what the schema gives
 */
const { execFileSync } = require("node:child_process");
const { createHash } = require("node:crypto");
const fs = require("node:fs");
const path = require("node:path");
const { ensureEntry, toolCache } = require("./cache-entry");

const ROOT = path.resolve(__dirname, "..");
const SCHEMA = path.join(ROOT, "plugin", "schema.json");
const GO_SDK = path.join(ROOT, "sdk", "go", "hosting");
const PY_DIST = path.join(ROOT, "sdk", "python", "dist");
/** The Python build front end and backend, pinned: the wheel is what these make of the SDK. */
const PY_BUILD = ["build==1.2.2", "setuptools==75.8.0"];
const GO_BUILD_ENV = { ...process.env, GOFLAGS: "-mod=mod", GOSUMDB: "off" };
// The wheel's timestamps: the same SDK gives the same archive on every machine.
const SOURCE_DATE_EPOCH = "1700000000";

const run = (cmd, args, o = {}) =>
  execFileSync(cmd, args, { ...o, stdio: ["ignore", "pipe", "pipe"], maxBuffer: 64 << 20 });

const digest = (...parts) => {
  const h = createHash("sha256");
  for (const p of parts) h.update(`\0`).update(p);
  return h.digest("hex").slice(0, 16);
};

function schemaText() {
  if (!fs.existsSync(SCHEMA)) throw new Error(`${SCHEMA} is missing: run npm run build first`);
  return fs.readFileSync(SCHEMA);
}

/** A Go tool of scripts/<name> (main.go, go.mod, go.sum), built once per content. */
function goTool(name) {
  const src = path.join(__dirname, name);
  const key = digest(
    ...["main.go", "go.mod", "go.sum"].map((f) => fs.readFileSync(path.join(src, f))),
  );
  const dir = ensureEntry(path.join(toolCache(), `${name}-${key}`), (at) =>
    run("go", ["build", "-trimpath", "-o", path.join(at, name), "."], {
      cwd: src,
      env: GO_BUILD_ENV,
    }),
  );
  return path.join(dir, name);
}

/** Where the generated SDK of `language` ("python" or "go") is: a cache entry, not to edit. */
function generatedSdk(language) {
  const tool = goTool("sdkgen");
  const key = digest(schemaText(), fs.readFileSync(tool));
  return ensureEntry(path.join(toolCache(), "sdk", `${key}-${language}`), (at) => {
    run(tool, ["sdk", SCHEMA, language, at]);
    // pyproject.toml names a README at the root; the generator writes it in the package.
    if (language === "python") {
      fs.copyFileSync(path.join(at, "pulumi_hosting", "README.md"), path.join(at, "README.md"));
    }
  });
}

/** A venv with the pinned build front end (made where it stays: a venv is not relocatable). */
function buildVenv() {
  const python = (at) => path.join(at, "bin", "python");
  return ensureEntry(
    path.join(toolCache(), "py", `build-${digest(PY_BUILD.join(" "))}`),
    (at) => {
      run("python3", ["-m", "venv", at]);
      run(python(at), ["-m", "pip", "install", "-q", ...PY_BUILD]);
    },
    {
      check: (at) =>
        run(python(at), ["-c", "import sys, build, setuptools; print(sys.prefix)"])
          .toString()
          .trim() === at,
    },
  );
}

/**
 * The Python SDK's sdist and wheel (the wheel built from the sdist, as an installer would): a
 * folder holding `pulumi_hosting-<version>.tar.gz` and `pulumi_hosting-<version>-py3-none-any.whl`.
 */
function pythonDist() {
  const sdk = generatedSdk("python");
  return ensureEntry(path.join(`${sdk}-dist-${digest(PY_BUILD.join(" "))}`), (at) => {
    const src = path.join(at, "src");
    fs.cpSync(sdk, src, { recursive: true, filter: (f) => path.basename(f) !== "made.json" });
    const python = path.join(buildVenv(), "bin", "python");
    run(python, ["-m", "build", "--no-isolation", "--outdir", path.join(at, "dist"), src], {
      env: { ...process.env, SOURCE_DATE_EPOCH },
    });
    fs.rmSync(src, { recursive: true });
  });
}

/** The built wheel's path. */
function pythonWheel() {
  const dist = path.join(pythonDist(), "dist");
  const wheels = fs.readdirSync(dist).filter((f) => f.endsWith(".whl"));
  if (wheels.length !== 1) throw new Error(`expected one wheel in ${dist}, found ${wheels}`);
  return path.join(dist, wheels[0]);
}

/** Relative paths of the files under `dir`, sorted. */
function filesOf(dir) {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)))
    .sort();
}

/** Files of the committed Go SDK that differ from the generated one (missing, changed, extra). */
function goSdkDifferences(committed = GO_SDK) {
  const generated = path.join(generatedSdk("go"), "hosting");
  const want = filesOf(generated);
  const have = filesOf(committed);
  const differ = want.filter(
    (f) =>
      !have.includes(f) ||
      !fs.readFileSync(path.join(generated, f)).equals(fs.readFileSync(path.join(committed, f))),
  );
  return differ.concat(have.filter((f) => !want.includes(f)));
}

function writeGoSdk() {
  fs.rmSync(GO_SDK, { recursive: true, force: true });
  fs.cpSync(path.join(generatedSdk("go"), "hosting"), GO_SDK, { recursive: true });
}

function writePythonDist() {
  fs.rmSync(PY_DIST, { recursive: true, force: true });
  fs.cpSync(path.join(pythonDist(), "dist"), PY_DIST, { recursive: true });
}

module.exports = {
  GO_SDK,
  PY_DIST,
  SCHEMA,
  digest,
  schemaText,
  goTool,
  generatedSdk,
  goSdkDifferences,
  pythonDist,
  pythonWheel,
  filesOf,
};

if (require.main === module) {
  const say = (m) => process.stderr.write(`[sdk] ${m}\n`);
  if (process.argv.includes("--check")) {
    const stale = goSdkDifferences();
    if (stale.length > 0) {
      say(
        `sdk/go/hosting is not what plugin/schema.json gives (${stale.join(", ")}): run npm run sdk`,
      );
      process.exit(1);
    }
    say("sdk/go/hosting is what plugin/schema.json gives");
  } else {
    writeGoSdk();
    say(`wrote ${path.relative(ROOT, GO_SDK)}`);
    writePythonDist();
    for (const f of fs.readdirSync(PY_DIST))
      say(`wrote ${path.relative(ROOT, path.join(PY_DIST, f))}`);
  }
}
