/*
 * Generates docs/reference/: one Markdown page per resource class, in the Registry's shape, from
 * the field declarations (dist/provider/declarations.js, so `npm run build` first) and the class
 * comments; one page per data source (getX with getXOutput, pickRuntimeVersion) from the
 * exported signatures and their comments. Each page's example is in TypeScript, Python, Go and
 * YAML, generated from its YAML source by scripts/reference-programs.js (Pulumi's program
 * generators: the Go tools of scripts/yamlpcl and scripts/sdkgen).
 *
 * `node scripts/reference-docs.js` (`npm run docs`) writes the pages; `--check` fails when the
 * committed ones are not what the sources give. `generate(examplesOfPages())` regenerates every
 * page but the examples without Go (test/docs/reference.test.ts).
 */
const fs = require("node:fs");
const path = require("node:path");
const ts = require("typescript");
const typescriptOnly = require("./reference-examples");
const programs = require("./reference-programs");

const ROOT = path.resolve(__dirname, "..");
const OUT = path.join(ROOT, "docs", "reference");

const INDEX = path.join(ROOT, "src", "index.ts");
const OPTIONS = { strict: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.CommonJS };

let indexExports;

/** The exported names of src/index.ts with their declarations, through the type checker. */
function exportsOfIndex() {
  indexExports ??= readIndexExports(ts.createProgram([INDEX], OPTIONS));
  return indexExports;
}

/** The same of `program`, a program over src/index.ts (and more). */
function readIndexExports(program) {
  const checker = program.getTypeChecker();
  const index = program.getSourceFile(INDEX);
  const symbols = checker.getExportsOfModule(checker.getSymbolAtLocation(index));
  const resolved = new Map();
  for (const s of symbols) {
    resolved.set(s.name, s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s);
  }
  return { checker, symbols: resolved, program };
}

/** A symbol's comment: its text (links as code) and its @example code, if any. */
function commentOf(checker, symbol) {
  const text = ts
    .displayPartsToString(symbol.getDocumentationComment(checker))
    .replace(/\{@link\s+([^}\s]+)\s*\}/g, "`$1`")
    .trim();
  const example = symbol
    .getJsDocTags(checker)
    .filter((t) => t.name === "example")
    .map((t) => ts.displayPartsToString(t.text))
    .map((t) => t.replace(/^\s*```ts\n?/, "").replace(/\n?```\s*$/, ""))
    .join("\n");
  return { text, example: example.trim() };
}

const one = (s) => s.replace(/\s+/g, " ").trim();

/** A property's name in the Python SDK (Pulumi's PyName for these camelCase names). */
const pyName = (n) => n.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase();
/** A property's name in the Go SDK (exported field). */
const goName = (n) => n[0].toUpperCase() + n.slice(1);
/** `name` with its Python and Go names (YAML, TypeScript and the schema use `name`). */
const names = (n) => `\`${n}\` (Python \`${pyName(n)}\`, Go \`${goName(n)}\`;`;

/** A complete program around a TypeScript-only example (the pages' snippets compile as they are). */
function program(body) {
  const imports = [];
  if (/\bpath\./.test(body)) imports.push('import * as path from "node:path";');
  if (/\bpulumi\./.test(body)) imports.push('import * as pulumi from "@pulumi/pulumi";');
  imports.push('import * as hosting from "pulumi-hosting";');
  const needsApp = /\bapp\./.test(body) && !/const app\b/.test(body);
  const lines = [...imports, ""];
  if (needsApp) lines.push('const app = new hosting.App("web", { source: "./app", name: "web" });');
  lines.push(body);
  return lines.join("\n");
}

/**
 * The "Example Usage" section: one block per language, from the page's YAML source; or the
 * TypeScript of a helper that only the TypeScript package has.
 */
function exampleSection(name, example) {
  if (typeof example === "string") {
    return [
      "## Example Usage",
      "",
      "A helper of the TypeScript package only: in other languages, pick from the data source's result.",
      "",
      "```ts",
      program(example),
      "```",
      "",
    ];
  }
  const out = [
    "## Example Usage",
    "",
    `Written once in YAML (\`scripts/reference-examples/${name}.yaml\`); the TypeScript, Python ` +
      "and Go are what Pulumi's program generators make of it. TypeScript uses this package's " +
      "own classes and functions; Python, Go and YAML the native plugin and its SDKs.",
    "",
  ];
  for (const { key, title, fence } of programs.LANGUAGES) {
    const code = example[key];
    if (typeof code !== "string") throw new Error(`the example of ${name} has no ${title}`);
    out.push(`### ${title}`, "", "```" + fence, code.replace(/\n*$/, ""), "```", "");
  }
  return out;
}

/**
 * The examples as the committed pages show them: page name → { typescript, python, go, yaml },
 * or the TypeScript text of a TypeScript-only page (as written, without its imports).
 */
function examplesOfPages(dir = OUT) {
  const out = new Map();
  if (!fs.existsSync(dir)) return out;
  for (const file of fs.readdirSync(dir).filter((f) => f.endsWith(".md"))) {
    const text = fs.readFileSync(path.join(dir, file), "utf8");
    const start = text.indexOf("\n## Example Usage\n");
    if (start < 0) continue;
    const section = text.slice(start + 1, text.indexOf("\n## ", start + 1));
    const example = {};
    for (const m of section.matchAll(/^### (\w+)\n\n```(\w+)\n([\s\S]*?)^```$/gm)) {
      const language = programs.LANGUAGES.find((l) => l.title === m[1] && l.fence === m[2]);
      if (language) example[language.key] = m[3];
    }
    out.set(file.slice(0, -".md".length), example);
  }
  return out;
}

const BIGGEST = Number.MAX_SAFE_INTEGER;

/** The limits `check` applies to one input, in words, from its rules' JSON Schema. */
function limitsOf(s) {
  if (!s || typeof s !== "object") return [];
  const out = [];
  if (s.type === "integer") out.push("a whole number");
  if (s.exclusiveMinimum !== undefined) out.push(`more than ${s.exclusiveMinimum}`);
  if (s.minimum !== undefined) out.push(`at least ${s.minimum}`);
  if (s.maximum !== undefined && s.maximum < BIGGEST) out.push(`at most ${s.maximum}`);
  if (s.type === "string") {
    const { minLength: min, maxLength: max } = s;
    if (max !== undefined) out.push(min ? `${min}-${max} characters` : `at most ${max} characters`);
    else if (min) out.push("not empty");
    if (s.pattern) out.push(`matching \`${s.pattern}\``);
  }
  if (s.type === "object" && s.properties) {
    for (const [k, p] of Object.entries(s.properties)) {
      const inner = limitsOf(p);
      if (inner.length > 0) out.push(`\`${k}\`: ${inner.join(", ")}`);
    }
  }
  return out;
}

/** Each input's limits, generated from the schema `check` validates with. */
function inputLimits(schema) {
  const { z } = require("zod");
  const json = z.toJSONSchema(schema, { unrepresentable: "any", io: "input" });
  return Object.fromEntries(
    Object.entries(json.properties ?? {}).map(([k, s]) => [k, limitsOf(s)]),
  );
}

function resourcePage(kind, declaration, comment, example) {
  const { fields, adoption } = declaration;
  const limits = inputLimits(declaration.inputs);
  const limitText = (k) => (limits[k]?.length ? ` Limits: ${limits[k].join("; ")}.` : "");
  const entries = Object.entries(fields);
  const args = entries.filter(([, f]) => f.input === "required" || f.input === "optional");
  const tags = (f) =>
    [
      f.input === "required" ? "Required" : "Optional",
      `\`${f.type}\``,
      f.secret ? "secret" : undefined,
    ]
      .filter(Boolean)
      .join(", ");
  const replaces = entries.filter(([, f]) => f.replaces).map(([k]) => `\`${k}\``);
  const out = [
    `# ${kind}`,
    "",
    one(comment.text),
    "",
    `Type token: \`pulumi-nodejs:dynamic/hosting:${kind}\`; with the native plugin ` +
      `(other languages, \`pulumi import\`): \`hosting:index:${kind}\`.`,
    "",
    ...exampleSection(kind, example),
    "## Argument Reference",
    "",
    ...args.map(([k, f]) => `- ${names(k)} ${tags(f)}): ${one(f.doc)}${limitText(k)}`),
    `- ${names("account")} Optional, \`string\`): ${one(declaration.accountDoc)}`,
    "",
    "## Attribute Reference",
    "",
    "Every argument is also an output, under the same name; `id` is the service's id of the object.",
    "",
    ...entries.map(([k, f]) => {
      const secret = f.secret ? ", secret" : "";
      return `- ${names(k)} \`${f.type}\`${secret}): ${one(f.outputDoc ?? f.doc)}`;
    }),
    `- ${names("account")} \`string | undefined\`): The named account; undefined for the default account.`,
    "",
    "Text inputs are one line: control characters (newline, tab, NUL, …) are refused.",
    "",
    ...(declaration.notes ?? []).flatMap((n) => [
      `## ${n.heading}`,
      "",
      ...n.text.flatMap((t) => [one(t), ""]),
    ]),
    "## Adoption (in place of import)",
    "",
    one(adoption),
    "",
    "## Replacement",
    "",
    replaces.length > 0
      ? `A change to ${replaces.join(", ")} replaces the resource; any other argument changes in place.`
      : "No argument replaces the resource; every change is made in place.",
    "A change of `account` replaces it when the new account has another URL or token.",
    "",
  ];
  return out.join("\n");
}

/** The fields of a type as reference lines: `name` (Required|Optional, `type`): doc. */
function fieldLines(checker, type, native = true) {
  const members = type.isUnion() ? type.types : [type];
  const seen = new Map();
  for (const member of members) {
    for (const p of checker.getPropertiesOfType(member)) {
      if (seen.has(p.name)) continue;
      const decl = p.valueDeclaration ?? p.declarations?.[0];
      const optional = (p.flags & ts.SymbolFlags.Optional) !== 0 || members.length > 1;
      const t = decl ? checker.getTypeOfSymbolAtLocation(p, decl) : undefined;
      // `name?: never` in one member of a union only says "not with the other one".
      if (t && checker.getNonNullableType(t).flags & ts.TypeFlags.Never) continue;
      const typeText = t ? checker.typeToString(checker.getNonNullableType(t)) : "unknown";
      const doc = one(commentOf(checker, p).text) || "(undocumented)";
      const required = optional ? "Optional" : "Required";
      const named = native ? `${names(p.name)} ` : `\`${p.name}\` (`;
      seen.set(p.name, `- ${named}${required}, \`${typeText}\`): ${doc}`);
    }
  }
  return [...seen.values()];
}

/** The value a call gives: Promise<T> → T, T[] → T (the fields of one element are listed). */
function resultType(checker, fn) {
  const sig = checker.getSignaturesOfType(fn, ts.SignatureKind.Call)[0];
  let t = checker.getReturnTypeOfSignature(sig);
  const promised = checker.getPromisedTypeOfPromise?.(t);
  if (promised) t = promised;
  let list = false;
  if (checker.isArrayType(t)) {
    t = checker.getTypeArguments(t)[0];
    list = true;
  }
  return { sig, type: t, list };
}

/** One parameter of a data source as reference lines. */
function parameterLines(checker, param, decl, native) {
  const optional = checker.isOptionalParameter(decl);
  const type = checker.getNonNullableType(checker.getTypeOfSymbol(param));
  const typeText = checker.typeToString(type);
  const head = `### \`${param.name}\` (${optional ? "Optional" : "Required"}, \`${typeText}\`)`;
  if (/^pulumi\.Invoke(Output)?Options$|^Invoke(Output)?Options$/.test(typeText)) {
    const options =
      "Pulumi's invoke options. `dependsOn` waits for those resources first; `provider` is " +
      "refused with an error (the connection comes from `hosting:*` config or `account`); the " +
      "others are accepted and change nothing.";
    return [head, "", options, ""];
  }
  if (checker.isArrayType(type)) {
    const element = checker.getTypeArguments(type)[0];
    const what = `A list of \`${checker.typeToString(element)}\`, each with:`;
    return [head, "", what, "", ...fieldLines(checker, element, native), ""];
  }
  const lines = fieldLines(checker, type, native);
  return [head, "", ...(lines.length > 0 ? lines : ["No fields."]), ""];
}

function dataSourcePage(checker, name, symbols, example) {
  const fn = symbols.get(name);
  const comment = commentOf(checker, fn);
  const { sig, type, list } = resultType(checker, checker.getTypeOfSymbol(fn));
  const output = symbols.get(`${name}Output`);
  // A function of the native plugin too (hosting:index:<name>), or a TypeScript helper only.
  const native = name.startsWith("get");
  const out = [`# ${name}`, "", one(comment.text), ""];
  if (output) {
    out.push(
      `\`${name}Output\` takes the same arguments as Inputs and gives an Output ${one(
        commentOf(checker, output).text,
      ).replace(/^`\w+` for Inputs: an Output\s*/, "")}`,
      "",
    );
  }
  out.push(...exampleSection(name, example), "## Argument Reference", "");
  for (const param of sig.parameters) {
    out.push(...parameterLines(checker, param, param.valueDeclaration, native));
  }
  const typeName = checker.typeToString(type);
  out.push(
    "## Attribute Reference",
    "",
    list ? `A list of \`${typeName}\`, each with:` : `The result (\`${typeName}\`) has:`,
    "",
    ...fieldLines(checker, type, native),
    "",
  );
  if (native && list) {
    out.push(
      `In the native plugin's SDKs and YAML, \`hosting:index:${name}\` returns \`{ items }\` with ` +
        "this list (Python `.items`, Go `.Items`).",
      "",
    );
  }
  return out.join("\n");
}

/**
 * Every page, by file name under docs/reference/.
 * @param {Map<string, object>} examples page name → its example in every language
 *   (scripts/reference-programs.js `generate()`, or `examplesOfPages()` as committed)
 */
function generate(examples) {
  const { resourceDeclarations } = require(path.join(ROOT, "dist", "provider", "declarations"));
  const { accountField } = require(path.join(ROOT, "dist", "provider", "fields"));
  const { checker, symbols } = exportsOfIndex();
  const exampleOf = (name) => {
    if (typescriptOnly[name]) return typescriptOnly[name];
    const example = examples.get(name);
    if (!example)
      throw new Error(`no example of ${name}: write scripts/reference-examples/${name}.yaml`);
    return example;
  };
  const pages = new Map();
  for (const [kind, declaration] of Object.entries(resourceDeclarations)) {
    const comment = commentOf(checker, symbols.get(kind));
    const d = { ...declaration, accountDoc: accountField.doc };
    pages.set(`${kind}.md`, resourcePage(kind, d, comment, exampleOf(kind)));
  }
  const dataSources = [...symbols.keys()]
    .filter((n) => /^get[A-Z]\w*$/.test(n) && !n.endsWith("Output"))
    .concat("pickRuntimeVersion")
    .sort();
  for (const name of dataSources) {
    pages.set(`${name}.md`, dataSourcePage(checker, name, symbols, exampleOf(name)));
  }
  const unused = [...examples.keys()].filter((n) => !pages.has(`${n}.md`));
  if (unused.length > 0) throw new Error(`examples of no page: ${unused.join(", ")}`);
  const resources = Object.keys(resourceDeclarations);
  pages.set(
    "README.md",
    [
      "# pulumi-hosting reference",
      "",
      "Generated by `npm run docs` from the resource declarations and the exported signatures;",
      "do not edit by hand.",
      "",
      "## Resources",
      "",
      ...resources.map((k) => `- [${k}](${k}.md)`),
      "",
      "## Data sources",
      "",
      ...dataSources.map((n) => {
        const output = symbols.has(`${n}Output`) ? ` / \`${n}Output\`` : "";
        return `- [\`${n}\`${output}](${n}.md)`;
      }),
      "",
    ].join("\n"),
  );
  return pages;
}

/** The committed pages that differ from `pages` (missing, changed, extra). */
function stalePages(pages) {
  const present = fs.existsSync(OUT) ? fs.readdirSync(OUT).filter((f) => f.endsWith(".md")) : [];
  const stale = [];
  for (const [file, text] of pages) {
    const p = path.join(OUT, file);
    if (!fs.existsSync(p) || fs.readFileSync(p, "utf8") !== text) stale.push(file);
  }
  return stale.concat(present.filter((f) => !pages.has(f)));
}

function write(pages) {
  fs.mkdirSync(OUT, { recursive: true });
  for (const f of fs.readdirSync(OUT)) if (!pages.has(f)) fs.rmSync(path.join(OUT, f));
  for (const [file, text] of pages) fs.writeFileSync(path.join(OUT, file), text);
}

/**
 * Arguments whose hover text (the `<Kind>Args` comment) says something else than the
 * declaration's `doc`: the two are written side by side and must not drift apart.
 */
function hoverMismatches() {
  const { resourceDeclarations } = require(path.join(ROOT, "dist", "provider", "declarations"));
  const { checker, symbols } = exportsOfIndex();
  const out = [];
  for (const [kind, { fields }] of Object.entries(resourceDeclarations)) {
    const args = checker.getDeclaredTypeOfSymbol(symbols.get(`${kind}Args`));
    for (const p of checker.getPropertiesOfType(args)) {
      if (p.name === "account") continue;
      const hover = one(commentOf(checker, p).text);
      const doc = one(fields[p.name]?.doc ?? "");
      if (hover !== doc) out.push(`${kind}Args.${p.name}: "${hover}" ≠ declared "${doc}"`);
    }
    // The class's outputs: the declaration's outputDoc, or its doc.
    const resource = checker.getDeclaredTypeOfSymbol(symbols.get(kind));
    for (const name of Object.keys(fields)) {
      const p = checker.getPropertyOfType(resource, name);
      const hover = p ? one(commentOf(checker, p).text) : "(no output)";
      const doc = one(fields[name].outputDoc ?? fields[name].doc);
      if (hover !== doc) out.push(`${kind}.${name}: "${hover}" ≠ declared "${doc}"`);
    }
  }
  return out;
}

module.exports = {
  pyName,
  goName,
  generate,
  examplesOfPages,
  stalePages,
  hoverMismatches,
  resourcePage,
  exportsOfIndex,
  readIndexExports,
  INDEX,
  OPTIONS,
  commentOf,
  OUT,
};

if (require.main === module) {
  const pages = generate(programs.generate());
  if (process.argv.includes("--check")) {
    const stale = stalePages(pages);
    if (stale.length > 0) {
      console.error(`docs/reference is stale (${stale.join(", ")}): run npm run docs`);
      process.exit(1);
    }
  } else {
    write(pages);
  }
}
