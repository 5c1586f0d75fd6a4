import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "../helpers/pulumi-parts";
import { testIf } from "../helpers/test-if";
import { goMissing } from "../helpers/go-tool";

/*
 * The SDKs as artifacts (scripts/sdk.js, `npm run sdk`): the Go SDK committed at sdk/go/hosting
 * is byte for byte what the schema gives, and the Python wheel and sdist carry the package a user
 * imports, at the schema's version, with the dependencies it needs. The programs that use them
 * through the engine are in sdk-programs.test.ts.
 */

// eslint-disable-next-line @typescript-eslint/no-require-imports
const sdk = require("../../scripts/sdk") as {
  GO_SDK: string;
  filesOf(dir: string): string[];
  generatedSdk(language: "python" | "go"): string;
  goSdkDifferences(committed?: string): string[];
  pythonDist(): string;
};

const schema = () =>
  JSON.parse(readFileSync(join(ROOT, "plugin", "schema.json"), "utf8")) as {
    version: string;
    language: { go: { importBasePath: string } };
  };

describe(`the SDK artifacts ${goMissing ?? ""}`, () => {
  testIf(!goMissing, goMissing ?? "")(
    "sdk/go/hosting is what the schema gives (run npm run sdk when this fails)",
    () => {
      // Regenerated into the cache (keyed by the schema and the generator), compared per file.
      expect(sdk.goSdkDifferences()).toEqual([]);
    },
    1_500_000,
  );

  test("the Go module holds the schema's import path and pins Pulumi's Go SDK", () => {
    const goMod = readFileSync(join(ROOT, "sdk", "go.mod"), "utf8");
    const module = /^module (\S+)$/m.exec(goMod)?.[1];
    // Pulumi's layout: the module is sdk/, the package sdk/go/<name>.
    expect(`${module}/go/hosting`).toBe(schema().language.go.importBasePath);
    expect(goMod).toMatch(/^\s*github\.com\/pulumi\/pulumi\/sdk\/v3 v3\.\d+\.\d+$/m);
    expect(readFileSync(join(ROOT, "sdk", "go.sum"), "utf8")).toContain(
      "github.com/pulumi/pulumi/sdk/v3 ",
    );
  });

  testIf(!goMissing, goMissing ?? "")(
    "the wheel and the sdist carry pulumi_hosting at the schema's version",
    () => {
      const dist = join(sdk.pythonDist(), "dist");
      const version = schema().version;
      const wheel = join(dist, `pulumi_hosting-${version}-py3-none-any.whl`);
      const names = execFileSync("unzip", ["-Z1", wheel]).toString().split("\n");
      for (const f of ["__init__.py", "app.py", "custom_domain.py", "pulumi-plugin.json"]) {
        expect(names).toContain(`pulumi_hosting/${f}`);
      }
      const meta = execFileSync("unzip", [
        "-p",
        wheel,
        `pulumi_hosting-${version}.dist-info/METADATA`,
      ]).toString();
      expect(meta).toContain(`Version: ${version}`);
      expect(meta).toMatch(/^Requires-Dist: pulumi<4\.0\.0,>=3\.\d+\.\d+$/m);
      // The plugin the engine loads for the SDK's resources: this package, at this version.
      const plugin = JSON.parse(
        execFileSync("unzip", ["-p", wheel, "pulumi_hosting/pulumi-plugin.json"]).toString(),
      ) as { resource: boolean; name: string; version: string };
      expect(plugin).toMatchObject({ resource: true, name: "hosting", version });
      const sdist = execFileSync("tar", [
        "-tzf",
        join(dist, `pulumi_hosting-${version}.tar.gz`),
      ]).toString();
      expect(sdist).toContain(`pulumi_hosting-${version}/pyproject.toml`);
      expect(sdist).toContain(`pulumi_hosting-${version}/pulumi_hosting/app.py`);
    },
    900_000,
  );

  testIf(!goMissing, goMissing ?? "")(
    "every Python and Go name the reference pages give is the SDKs' own",
    () => {
      const docs = join(ROOT, "docs", "reference");
      const pages = readdirSync(docs).map((f) => readFileSync(join(docs, f), "utf8"));
      const shown = (lang: string) =>
        new Set(
          pages.flatMap((p) =>
            [...p.matchAll(new RegExp(`${lang} \`(\\w+)\``, "g"))].map((m) => m[1]),
          ),
        );
      const textOf = (dir: string) =>
        sdk
          .filesOf(dir)
          .map((f) => readFileSync(join(dir, f), "utf8"))
          .join("\n");
      const goText = textOf(sdk.GO_SDK);
      const pyText = textOf(join(sdk.generatedSdk("python"), "pulumi_hosting"));
      const goNames = [...shown("Go")];
      const pyNames = [...shown("Python")];
      expect(goNames.length).toBeGreaterThan(50);
      // A struct field of the Go SDK (`\tAppId pulumi.StringInput`), a parameter of the Python SDK.
      expect(goNames.filter((n) => !new RegExp(`^\\t${n} `, "m").test(goText))).toEqual([]);
      expect(pyNames.filter((n) => !new RegExp(`\\b${n}\\b`).test(pyText))).toEqual([]);
    },
    900_000,
  );
});
