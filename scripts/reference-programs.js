/*
 * The reference pages' examples in TypeScript, Python, Go and YAML, each written once as a Pulumi
 * YAML program (scripts/reference-examples/<Page>.yaml) and carried to the other languages by
 * Pulumi's own program generators, as `pulumi convert` and the Registry do:
 *
 *   YAML --scripts/yamlpcl (pulumi-yaml's converter)--> PCL
 *        --scripts/sdkgen programs (pkg/v3/codegen v3.274.1)--> TypeScript, Python, Go
 *
 * Both steps are entries of scripts/cache-entry.js keyed by what they read (the tool, the schema,
 * the sources), so only a change pays. What the generators give is then adapted where this
 * package differs from a generated SDK, and nowhere else (see `adapt`):
 *
 * - TypeScript: the pages show this package's own classes (`pulumi-hosting`), not a generated
 *   SDK (the schema's `@pulumi-hosting/hosting`), and its list data sources give the list itself
 *   where the plugin's give `{ items }`;
 * - Go: the Go SDK names `getApp` `LookupApp` (it has a resource getter `GetApp`); the program
 *   generator asks for `GetApp` for tokens of the `index` module (`hosting:index:getApp`).
 *
 * A construct a generator gets wrong is reworded in the YAML source, with a comment saying why;
 * generated code is never edited by hand. Comments of the sources are for maintainers and are
 * not shown on the pages (the generators drop them too).
 */
const fs = require("node:fs");
const path = require("node:path");
const { execFileSync } = require("node:child_process");
const { ensureEntry, toolCache } = require("./cache-entry");
const { SCHEMA, digest, goTool, schemaText } = require("./sdk");

const ROOT = path.resolve(__dirname, "..");
const SOURCES = path.join(__dirname, "reference-examples");
const GO_SDK = path.join(ROOT, "sdk", "go", "hosting");

/** The languages of a page, in its order, with the fence each block is marked with. */
const LANGUAGES = [
  { key: "typescript", title: "TypeScript", fence: "ts" },
  { key: "python", title: "Python", fence: "python" },
  { key: "go", title: "Go", fence: "go" },
  { key: "yaml", title: "YAML", fence: "yaml" },
];

const LOOKUP = /^func Lookup(\w+)\(ctx \*pulumi\.Context, args \*Lookup\1Args\b/gm;

const run = (cmd, args) =>
  execFileSync(cmd, args, { stdio: ["ignore", "pipe", "pipe"], maxBuffer: 64 << 20 });

/** The YAML sources: page name → text, sorted by name. */
function sources(dir = SOURCES) {
  const names = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith(".yaml"))
    .sort();
  return new Map(
    names.map((f) => [f.slice(0, -".yaml".length), fs.readFileSync(path.join(dir, f), "utf8")]),
  );
}

/** Writes `texts` (name → YAML) into `dir` as <name>.yaml. */
function writeSources(dir, texts) {
  fs.mkdirSync(dir, { recursive: true });
  for (const [name, text] of texts) fs.writeFileSync(path.join(dir, `${name}.yaml`), text);
}

/**
 * The generators' output for `texts`: a folder holding <name>/{nodejs/index.ts,
 * python/__main__.py, go/main.go}. Two cache entries: the PCL of the sources, then the programs.
 */
function generatedFolder(texts) {
  const schema = schemaText();
  const yamlpcl = goTool("yamlpcl");
  const sourceKey = digest(...[...texts].flat());
  const pcl = ensureEntry(
    path.join(toolCache(), "reference-examples", `pcl-${digest(yamlpcl, schema, sourceKey)}`),
    (at) => {
      // The sources are copied in, so the entry holds what its key says it was made from.
      writeSources(path.join(at, "yaml"), texts);
      run(yamlpcl, [SCHEMA, path.join(at, "yaml"), path.join(at, "pcl")]);
    },
  );
  const sdkgen = goTool("sdkgen");
  return ensureEntry(
    path.join(toolCache(), "reference-examples", `programs-${digest(sdkgen, schema, pcl)}`),
    (at) => run(sdkgen, ["programs", SCHEMA, path.join(pcl, "pcl"), at]),
  );
}

/** What the adaptations need from the schema, the package and the Go SDK. */
function adaptationFacts() {
  const schema = JSON.parse(schemaText());
  const lists = Object.entries(schema.functions)
    .filter(([, f]) => Object.keys(f.outputs?.properties ?? {}).join() === "items")
    .map(([token]) => token.split(":").pop());
  const goSdk = fs.readdirSync(GO_SDK).filter((f) => f.endsWith(".go"));
  const lookups = goSdk.flatMap((f) =>
    // The plain form, `func LookupX(ctx *pulumi.Context, args *LookupXArgs, …)`: its name X.
    [...fs.readFileSync(path.join(GO_SDK, f), "utf8").matchAll(LOOKUP)].map((m) => m[1]),
  );
  return {
    sdkPackage: schema.language.nodejs.packageName,
    ownPackage: JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")).name,
    lists,
    lookups: [...new Set(lookups)],
  };
}

/**
 * TypeScript for this package: its import in place of the generated SDK's, and the list data
 * sources' `.items` dropped (they give the list itself). Only a program calling a list data
 * source loses `.items`; no other result of the schema has a property of that name (the test
 * holds both).
 */
function adaptTypeScript(text, facts) {
  const from = `import * as hosting from "${facts.sdkPackage}";`;
  if (!text.includes(from)) throw new Error(`the generated TypeScript lacks ${from}`);
  let out = text.replace(from, `import * as hosting from "${facts.ownPackage}";`);
  const callsList = facts.lists.some((fn) => new RegExp(`hosting\\.${fn}(Output)?\\(`).test(out));
  if (callsList) out = out.replace(/\.items\b/g, "");
  return out;
}

/** Go with the SDK's `LookupX` (function, args and result types) where the generator says GetX. */
function adaptGo(text, facts) {
  let out = text;
  for (const name of facts.lookups) {
    out = out.replace(
      new RegExp(`\\bhosting\\.Get${name}(Output)?(Args|OutputArgs)?\\b`, "g"),
      (_, output = "", args = "") => `hosting.Lookup${name}${output}${args}`,
    );
  }
  return out;
}

/** The YAML shown: the source without its comment lines (notes for maintainers). */
const shownYaml = (text) =>
  text
    .split("\n")
    .filter((l) => !/^\s*#/.test(l))
    .join("\n");

/**
 * Every example in every language: page name → { typescript, python, go, yaml }.
 * @param {Map<string, string>} [texts] the YAML sources (default: scripts/reference-examples)
 */
function generate(texts = sources()) {
  const folder = generatedFolder(texts);
  const facts = adaptationFacts();
  const read = (name, file) => fs.readFileSync(path.join(folder, name, file), "utf8");
  const out = new Map();
  for (const [name, text] of texts) {
    out.set(name, {
      typescript: adaptTypeScript(read(name, "nodejs/index.ts"), facts),
      python: read(name, "python/__main__.py"),
      go: adaptGo(read(name, "go/main.go"), facts),
      yaml: shownYaml(text),
    });
  }
  return out;
}

module.exports = {
  LANGUAGES,
  SOURCES,
  sources,
  generate,
  adaptationFacts,
  adaptTypeScript,
  adaptGo,
  shownYaml,
};
