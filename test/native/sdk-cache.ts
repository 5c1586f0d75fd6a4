import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ensureEntry, toolCache } from "../../scripts/cache-entry";
import { ROOT } from "../harness/pulumi-parts";
import { CLI_BIN } from "./cli";

/*
 * Generated SDKs and a Python venv, cached per machine in the project's cache folder, keyed by
 * what they are made from (the schema's content, the versions), so only the first run pays. Each
 * is an entry of scripts/cache-entry.js: made in place under a lock, trusted only when finished
 * where it is and its check passes.
 */

const SCHEMA = join(ROOT, "plugin", "schema.json");
export const PYTHON_PULUMI = "3.272.0";
const GO_BUILD_ENV = { ...process.env, GOFLAGS: "-mod=mod", GOSUMDB: "off" };

const run = (cmd: string, args: string[], o: { cwd?: string; env?: NodeJS.ProcessEnv } = {}) =>
  execFileSync(cmd, args, { ...o, stdio: ["ignore", "pipe", "pipe"], maxBuffer: 64 << 20 });

const schemaHash = () =>
  createHash("sha256").update(readFileSync(SCHEMA)).digest("hex").slice(0, 16);

/** The code generator of test/native/sdkgen (Pulumi's pkg/v3/codegen), built once. */
function sdkgen(): string {
  const dir = ensureEntry(join(toolCache(), "sdkgen-v3.274.1"), (at) =>
    run("go", ["build", "-o", join(at, "sdkgen"), "."], {
      cwd: join(__dirname, "sdkgen"),
      env: GO_BUILD_ENV,
    }),
  );
  return join(dir, "sdkgen");
}

/**
 * The SDK of one language from the plugin's schema. `pulumi package gen-sdk` needs the
 * language's host with GeneratePackage, which none that builds here has (the v3.68 hosts); then
 * the CLI's own code generators (pkg/v3/codegen, test/native/sdkgen) stand in.
 */
export function generatedSdk(language: "python" | "go"): string {
  return ensureEntry(join(toolCache(), "sdk", `${schemaHash()}-${language}`), (at) => {
    const host = join(CLI_BIN, `pulumi-language-${language}`);
    if (existsSync(host)) {
      const plugin = join(ROOT, "plugin", "pulumi-resource-hosting");
      run(join(CLI_BIN, "pulumi"), [
        "package",
        "gen-sdk",
        plugin,
        "--language",
        language,
        "-o",
        at,
      ]);
      return;
    }
    run(sdkgen(), [SCHEMA, language, at]);
    // pyproject.toml names a README at the root; the generator writes it in the package.
    if (language === "python") {
      copyFileSync(join(at, "pulumi_hosting", "README.md"), join(at, "README.md"));
    }
    // The Go SDK as the module its import path names (gen-sdk leaves that to the publisher).
    if (language === "go") {
      const mod = "module github.com/pulumi-hosting/pulumi-hosting/sdk/go\n\ngo 1.24\n\n";
      writeFileSync(join(at, "go.mod"), `${mod}require github.com/pulumi/pulumi/sdk/v3 v3.274.1\n`);
    }
  });
}

/** The Go program of test/native/go built against the generated Go SDK. */
export function goProgram(): string {
  const sdk = generatedSdk("go");
  const main = readFileSync(join(__dirname, "go", "main.go"));
  const key = createHash("sha256").update(sdk).update(main).digest("hex").slice(0, 16);
  const dir = ensureEntry(join(toolCache(), "go-program", key), (at) => {
    for (const f of ["main.go", "go.mod", "go.sum"])
      copyFileSync(join(__dirname, "go", f), join(at, f));
    symlinkSync(sdk, join(at, "sdk"));
    run("go", ["build", "-o", "program", "."], { cwd: at, env: GO_BUILD_ENV });
  });
  return join(dir, "program");
}

/**
 * A venv with PyPI's `pulumi` (and `wheel`, to install a generated SDK). Made where it stays (a
 * venv is not relocatable), and trusted only when its python runs from there and imports pulumi.
 */
export function pythonVenv(): string {
  const python = (at: string) => join(at, "bin", "python");
  return ensureEntry(
    join(toolCache(), "py", `venv-${PYTHON_PULUMI}`),
    (at) => {
      run("python3", ["-m", "venv", at]);
      // `python -m pip`, not bin/pip: nothing depends on a script's first line.
      run(python(at), ["-m", "pip", "install", "-q", `pulumi==${PYTHON_PULUMI}`, "wheel"]);
    },
    {
      check: (at) =>
        run(python(at), ["-c", "import sys, pulumi; print(sys.prefix)"]).toString().trim() === at,
    },
  );
}

/** The generated Python SDK installed (no dependencies) into a folder to put on sys.path. */
export function installedPythonSdk(venv: string): string {
  const sdk = generatedSdk("python");
  return ensureEntry(`${sdk}-site`, (at) =>
    run(join(venv, "bin", "python"), [
      "-m",
      "pip",
      "install",
      "-q",
      "--no-deps",
      "--no-build-isolation",
      "--target",
      at,
      sdk,
    ]),
  );
}
