import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { ensureEntry, toolCache } from "../../scripts/cache-entry";
import { ROOT } from "./pulumi-parts";

/*
 * What the SDK programs run, cached per machine in the project's cache folder and keyed by what
 * they are made from, so only the first run pays: Go programs built against the committed Go
 * SDK (sdk/, by `replace`), and a venv with the built wheel installed as a user installs it.
 * Each is an entry of scripts/cache-entry.js: made in place under a lock, trusted only when
 * finished where it is and its check passes.
 */

// eslint-disable-next-line @typescript-eslint/no-require-imports
const sdk = require("../../scripts/sdk") as {
  GO_SDK: string;
  filesOf(dir: string): string[];
  pythonWheel(): string;
};

export const PYTHON_PULUMI = "3.272.0";
const GO_BUILD_ENV = { ...process.env, GOFLAGS: "-mod=readonly", GOSUMDB: "off" };

const run = (cmd: string, args: string[], o: { cwd?: string; env?: NodeJS.ProcessEnv } = {}) =>
  execFileSync(cmd, args, { ...o, stdio: ["ignore", "pipe", "pipe"], maxBuffer: 64 << 20 });

/** A digest of files: their paths and contents. */
function filesDigest(files: string[]): string {
  const hash = createHash("sha256");
  for (const f of files) hash.update(`\0${f}\0`).update(readFileSync(f));
  return hash.digest("hex").slice(0, 16);
}

const GO_MODULE = join(__dirname, "..", "native", "go");

/**
 * A Go program built from `files` (path in the module → text) and test/native/go's go.mod and
 * go.sum, against the committed SDK (sdk/, by `replace`), in a cache entry of `kind` keyed by
 * all of them: the built program's path. With `complete`, Go may add requirements the files
 * import beyond test/native/go's (from its module cache or proxy); else go.mod must hold them.
 */
export function goModuleProgram(
  kind: string,
  files: Record<string, string>,
  o: { complete?: boolean } = {},
): string {
  const sdkRoot = join(ROOT, "sdk");
  const goMod = readFileSync(join(GO_MODULE, "go.mod"), "utf8").replace(
    /^replace (github\.com\/pulumi-hosting\/pulumi-hosting\/sdk) => .*$/m,
    `replace $1 => ${sdkRoot}`,
  );
  const all: Record<string, string> = {
    ...files,
    "go.mod": goMod,
    "go.sum": readFileSync(join(GO_MODULE, "go.sum"), "utf8"),
  };
  const hash = createHash("sha256");
  for (const [f, text] of Object.entries(all).sort()) hash.update(`\0${f}\0${text}`);
  hash.update(filesDigest(sdk.filesOf(sdk.GO_SDK).map((f) => join(sdk.GO_SDK, f))));
  hash.update(filesDigest(["go.mod", "go.sum"].map((f) => join(sdkRoot, f))));
  const dir = ensureEntry(join(toolCache(), kind, hash.digest("hex").slice(0, 16)), (at) => {
    for (const [f, text] of Object.entries(all)) {
      mkdirSync(dirname(join(at, "src", f)), { recursive: true });
      writeFileSync(join(at, "src", f), text);
    }
    run("go", ["build", "-trimpath", "-o", join(at, "program"), "."], {
      cwd: join(at, "src"),
      env: { ...GO_BUILD_ENV, ...(o.complete ? { GOFLAGS: "-mod=mod" } : {}) },
    });
  });
  return join(dir, "program");
}

/** test/native/go's own files but go.mod and go.sum (its main.go, the stackrun package). */
export function goModuleFiles(): Record<string, string> {
  const files = ["main.go", join("stackrun", "stackrun.go")];
  return Object.fromEntries(files.map((f) => [f, readFileSync(join(GO_MODULE, f), "utf8")]));
}

/** The Go program of test/native/go, built against the committed SDK (its go.mod's replace). */
export function goProgram(): string {
  return goModuleProgram("go-program", goModuleFiles());
}

/**
 * A fresh venv with the SDK's wheel installed by pip, with the dependencies the wheel declares
 * (Pulumi's Python SDK pinned to a version they admit). Made where it stays (a venv is not
 * relocatable), and trusted only when its python runs from there and imports pulumi_hosting
 * from its own site-packages.
 */
export function wheelVenv(): string {
  const wheel = sdk.pythonWheel();
  const python = (at: string) => join(at, "bin", "python");
  const key = filesDigest([wheel]);
  return ensureEntry(
    join(toolCache(), "py", `wheel-${key}-pulumi-${PYTHON_PULUMI}`),
    (at) => {
      run("python3", ["-m", "venv", at]);
      // `python -m pip`, not bin/pip: nothing depends on a script's first line.
      run(python(at), ["-m", "pip", "install", "-q", wheel, `pulumi==${PYTHON_PULUMI}`]);
    },
    {
      check: (at) =>
        run(python(at), [
          "-c",
          "import sys, pulumi_hosting; print(pulumi_hosting.__file__.startswith(sys.prefix))",
        ])
          .toString()
          .trim() === "True",
    },
  );
}
