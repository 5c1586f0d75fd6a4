import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as ts from "typescript";
import { packedTarball } from "../helpers/packed-tarball";

/*
 * What a new user's TypeScript sees: the package as `npm pack` ships it (built by pretest),
 * unpacked into a fresh project beside @pulumi/pulumi and @types/node, and nothing else, so a
 * declaration that names a dependency's types cannot resolve. One pack serves every check:
 * a user program, the @ts-expect-error fixtures and every ```ts block of the README, compiled
 * under the Pulumi TypeScript template's older and current tsconfig, without skipLibCheck for
 * the package: every file of the user's and every declaration of pulumi-hosting is checked in
 * full. The declarations of @pulumi/pulumi and @types/node are loaded and used but not checked
 * on their own (they are the same for every user, whatever this package ships), which is most
 * of a full check's cost.
 */

const ROOT = path.resolve(__dirname, "..", "..");
const FIXTURES = path.join(__dirname, "fixtures");

const template = {
  strict: true,
  outDir: "bin",
  target: "es2020",
  sourceMap: true,
  experimentalDecorators: true,
  pretty: true,
  noFallthroughCasesInSwitch: true,
  noImplicitReturns: true,
  forceConsistentCasingInFileNames: true,
};
const tsconfigs = {
  "older template (commonjs, node resolution)": {
    ...template,
    module: "commonjs",
    moduleResolution: "node",
  },
  "current template (nodenext)": { ...template, module: "nodenext", moduleResolution: "nodenext" },
};

let project: string;
const diagnostics = new Map<string, ts.Diagnostic[]>();

function readmeSnippets(): string[] {
  // The README and the generated reference pages (docs/reference/*.md).
  const reference = path.join(ROOT, "docs", "reference");
  const pages = fs.readdirSync(reference).filter((f) => f.endsWith(".md"));
  return [path.join(ROOT, "README.md"), ...pages.map((f) => path.join(reference, f))]
    .map((file) => fs.readFileSync(file, "utf8"))
    .flatMap((text) => [...text.matchAll(/^```ts\n([\s\S]*?)^```/gm)].map((m) => m[1]));
}

beforeAll(async () => {
  project = fs.mkdtempSync(path.join(os.tmpdir(), "hosting-user-"));
  const tgz = await packedTarball();
  const pkg = path.join(project, "node_modules", "pulumi-hosting");
  fs.mkdirSync(pkg, { recursive: true });
  execFileSync("tar", ["-xzf", tgz, "-C", pkg, "--strip-components=1"]);
  for (const dep of ["@pulumi/pulumi", "@types/node"]) {
    fs.mkdirSync(path.dirname(path.join(project, "node_modules", dep)), { recursive: true });
    fs.symlinkSync(path.join(ROOT, "node_modules", dep), path.join(project, "node_modules", dep));
  }
  fs.writeFileSync(
    path.join(project, "package.json"),
    JSON.stringify({ name: "user", main: "bin/index.js" }),
  );
  fs.cpSync(FIXTURES, path.join(project, "fixtures"), { recursive: true });
  fs.mkdirSync(path.join(project, "readme"));
  readmeSnippets().forEach((code, i) =>
    fs.writeFileSync(path.join(project, "readme", `snippet-${i + 1}.ts`), code),
  );
  const roots = ["fixtures", "readme"].flatMap((d) =>
    fs.readdirSync(path.join(project, d)).map((f) => path.join(project, d, f)),
  );
  for (const [name, compilerOptions] of Object.entries(tsconfigs)) {
    const { options, errors } = ts.convertCompilerOptionsFromJson(compilerOptions, project);
    expect(errors).toEqual([]);
    const program = ts.createProgram(roots, { ...options, noEmit: true });
    diagnostics.set(name, checked(program));
  }
}, 120_000);

afterAll(() => fs.rmSync(project, { recursive: true, force: true }));

/** getPreEmitDiagnostics, less the separate check of @pulumi/pulumi's and node's own files. */
function checked(program: ts.Program): ts.Diagnostic[] {
  const ours = program.getSourceFiles().filter((f) => {
    const rel = path.relative(project, f.fileName);
    return !rel.startsWith("..") && !/^node_modules\/(?!pulumi-hosting\/)/.test(rel);
  });
  return [
    ...program.getConfigFileParsingDiagnostics(),
    ...program.getOptionsDiagnostics(),
    ...program.getGlobalDiagnostics(),
    ...ours.flatMap((f) => [
      ...program.getSyntacticDiagnostics(f),
      ...program.getSemanticDiagnostics(f),
    ]),
  ];
}

function errorsIn(config: string, where: (file: string) => boolean): string[] {
  return diagnostics
    .get(config)!
    .filter((d) => where(d.file ? path.relative(project, d.file.fileName) : "(global)"))
    .map((d) => {
      const text = ts.flattenDiagnosticMessageText(d.messageText, "\n");
      if (!d.file) return text;
      const { line } = d.file.getLineAndCharacterOfPosition(d.start ?? 0);
      return `${path.relative(project, d.file.fileName)}:${line + 1}: ${text}`;
    });
}

describe("the packed package as a user's TypeScript sees it", () => {
  test("its declarations name no dependency's types: only @pulumi/pulumi and node", () => {
    const pkg = path.join(project, "node_modules", "pulumi-hosting");
    const manifest = JSON.parse(fs.readFileSync(path.join(pkg, "package.json"), "utf8"));
    // Entries with declarations ("./package.json" is exported as itself and has none).
    const entries = Object.values(manifest.exports as Record<string, string | { types: string }>)
      .flatMap((e) => (typeof e === "object" ? [e.types] : []))
      .map((types) => path.join(pkg, types));
    const seen = new Set<string>();
    const foreign: string[] = [];
    const walk = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      for (const m of fs.readFileSync(file, "utf8").matchAll(/(?:from\s+|import\()\s*"([^"]+)"/g)) {
        const spec = m[1];
        if (spec.startsWith(".")) {
          const base = path.resolve(path.dirname(file), spec);
          walk(fs.existsSync(`${base}.d.ts`) ? `${base}.d.ts` : path.join(base, "index.d.ts"));
        } else if (spec !== "@pulumi/pulumi" && !spec.startsWith("node:")) {
          foreign.push(`${path.relative(pkg, file)} imports ${spec}`);
        }
      }
    };
    entries.forEach(walk);
    expect(entries).toHaveLength(3);
    expect(seen.size).toBeGreaterThan(10);
    expect(foreign).toEqual([]);
  });

  for (const config of Object.keys(tsconfigs)) {
    describe(config, () => {
      test("a user program and the package's declarations compile with no error", () => {
        expect(errorsIn(config, (f) => !f.startsWith("readme/"))).toEqual([]);
      });

      test("every ```ts block of the README compiles", () => {
        expect(readmeSnippets().length).toBeGreaterThanOrEqual(4);
        expect(errorsIn(config, (f) => f.startsWith("readme/"))).toEqual([]);
      });
    });
  }
});
