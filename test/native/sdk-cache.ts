import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ensureEntry, toolCache } from "../../scripts/cache-entry";
import { ROOT } from "../harness/pulumi-parts";

/*
 * What the SDK programs run, cached per machine in the project's cache folder and keyed by what
 * they are made from, so only the first run pays: the Go program built against the committed Go
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

/** The Go program of test/native/go, built against the committed SDK (its go.mod's replace). */
export function goProgram(): string {
  const program = join(__dirname, "go");
  const sdkRoot = join(ROOT, "sdk");
  const inputs = [
    ...["main.go", "go.mod", "go.sum"].map((f) => join(program, f)),
    ...["go.mod", "go.sum"].map((f) => join(sdkRoot, f)),
    ...sdk.filesOf(sdk.GO_SDK).map((f) => join(sdk.GO_SDK, f)),
  ];
  const dir = ensureEntry(join(toolCache(), "go-program", filesDigest(inputs)), (at) =>
    run("go", ["build", "-trimpath", "-o", join(at, "program"), "."], {
      cwd: program,
      env: GO_BUILD_ENV,
    }),
  );
  return join(dir, "program");
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
