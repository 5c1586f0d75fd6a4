import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { ROOT } from "../harness/pulumi-parts";
import { CLI_BIN } from "./cli";

/*
 * Generated SDKs and a Python venv, cached per machine outside the repository, keyed by what
 * they are made from (the schema's content, the versions), so only the first run pays.
 */

const run = promisify(execFile);
export const CACHE = "/root/.cache/pulumi-hosting";
const SCHEMA = join(ROOT, "plugin", "schema.json");
export const PYTHON_PULUMI = "3.272.0";

const schemaHash = () =>
  createHash("sha256").update(readFileSync(SCHEMA)).digest("hex").slice(0, 16);

/** Makes `dir` by `make(tmp)` once: a half-made one is never seen. */
async function once(dir: string, make: (tmp: string) => Promise<void>): Promise<string> {
  if (existsSync(dir)) return dir;
  const tmp = `${dir}.making-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  await make(tmp);
  if (!existsSync(dir)) renameSync(tmp, dir);
  else rmSync(tmp, { recursive: true, force: true });
  return dir;
}

/**
 * The SDK of one language from the plugin's schema. `pulumi package gen-sdk` needs the
 * language's host with GeneratePackage, which none that builds here has (the v3.68 hosts); then
 * the CLI's own code generators (pkg/v3/codegen, test/native/sdkgen) stand in.
 */
export async function generatedSdk(language: "python" | "go"): Promise<string> {
  return once(join(CACHE, "sdk", `${schemaHash()}-${language}`), async (tmp) => {
    const host = join(CLI_BIN, `pulumi-language-${language}`);
    if (existsSync(host)) {
      const plugin = join(ROOT, "plugin", "pulumi-resource-hosting");
      await run(join(CLI_BIN, "pulumi"), [
        "package",
        "gen-sdk",
        plugin,
        "--language",
        language,
        "-o",
        tmp,
      ]);
      return;
    }
    const sdkgen = join(CACHE, "sdkgen-v3.274.1");
    if (!existsSync(sdkgen)) {
      await run("go", ["build", "-o", sdkgen, "."], {
        cwd: join(__dirname, "sdkgen"),
        env: { ...process.env, GOFLAGS: "-mod=mod", GOSUMDB: "off" },
      });
    }
    await run(sdkgen, [SCHEMA, language, tmp]);
    // pyproject.toml names a README at the root; the generator writes it in the package.
    if (language === "python") {
      copyFileSync(join(tmp, "pulumi_hosting", "README.md"), join(tmp, "README.md"));
    }
    // The Go SDK as the module its import path names (gen-sdk leaves that to the publisher).
    if (language === "go") {
      const mod = "module github.com/pulumi-hosting/pulumi-hosting/sdk/go\n\ngo 1.24\n\n";
      writeFileSync(
        join(tmp, "go.mod"),
        `${mod}require github.com/pulumi/pulumi/sdk/v3 v3.274.1\n`,
      );
    }
  });
}

/** The Go program of test/native/go built against the generated Go SDK. */
export async function goProgram(): Promise<string> {
  const sdk = await generatedSdk("go");
  const main = readFileSync(join(__dirname, "go", "main.go"));
  const key = createHash("sha256").update(sdk).update(main).digest("hex").slice(0, 16);
  const dir = await once(join(CACHE, "go-program", key), async (tmp) => {
    for (const f of ["main.go", "go.mod", "go.sum"])
      copyFileSync(join(__dirname, "go", f), join(tmp, f));
    symlinkSync(sdk, join(tmp, "sdk"));
    await run("go", ["build", "-o", "program", "."], {
      cwd: tmp,
      env: { ...process.env, GOFLAGS: "-mod=mod", GOSUMDB: "off" },
      maxBuffer: 64 * 1024 * 1024,
    });
  });
  return join(dir, "program");
}

/**
 * pip of a venv, run as `python -m pip`: the venv is made in a temporary folder and renamed, and
 * the `bin/pip` script keeps the temporary folder's python in its first line (ENOENT after the
 * rename); the venv's python finds its venv from where it is.
 */
const pip = (venv: string) => join(venv, "bin", "python3");
const PIP = ["-m", "pip"];

/** A venv with PyPI's `pulumi` (and `wheel`, to install a generated SDK). */
export async function pythonVenv(): Promise<string> {
  return once(join(CACHE, "py", `venv-${PYTHON_PULUMI}`), async (tmp) => {
    await run("python3", ["-m", "venv", tmp]);
    await run(pip(tmp), [...PIP, "install", "-q", `pulumi==${PYTHON_PULUMI}`, "wheel"]);
  });
}

/** The generated Python SDK installed (no dependencies) into a folder to put on sys.path. */
export async function installedPythonSdk(venv: string): Promise<string> {
  const sdk = await generatedSdk("python");
  return once(`${sdk}-site`, async (tmp) => {
    await run(pip(venv), [
      ...PIP,
      "install",
      "-q",
      "--no-deps",
      "--no-build-isolation",
      "--target",
      tmp,
      sdk,
    ]);
  });
}
