/*
 * Writes plugin/schema.json, the Pulumi package schema of the native plugin. Every type in it
 * comes from TypeScript through one converter (`typeSpec`): the resources' fields from the types
 * their declarations give (as text, read by the compiler here), the functions from the data
 * sources' signatures (the same checker pass as the reference pages). What the schema says
 * besides, and how a declaration reads in it, is dist/native/package-schema.js (build first).
 * `node scripts/plugin-schema.js` writes it; `build.js` runs it after tsc.
 */
const fs = require("node:fs");
const path = require("node:path");
const ts = require("typescript");

const ROOT = path.resolve(__dirname, "..");
const OUT = path.join(ROOT, "plugin", "schema.json");
const ANY = { $ref: "pulumi.json#/Any" };
/** Where the declared types are read, as a file beside src/index.ts (never written). */
const DECLARED = path.join(ROOT, "src", "declared-types.ts");

const one = (s) =>
  s
    .replace(/\{@link\s+([^}\s]+)\s*\}/g, "`$1`")
    .replace(/\s+/g, " ")
    .trim();

/** The dist/ module `rel` (build first). */
const dist = (...rel) => require(path.join(ROOT, "dist", ...rel));

/** Whether `type` is data: no call or construct signatures, and no methods (a Map, a Date). */
function isData(checker, type) {
  if (type.getCallSignatures().length > 0 || type.getConstructSignatures().length > 0) {
    return false;
  }
  return checker
    .getPropertiesOfType(type)
    .every((p) => !(p.flags & ts.SymbolFlags.Method) && !(p.flags & ts.SymbolFlags.Accessor));
}

/**
 * The schema type of a TypeScript type: the one converter. Object types are added to `types` by
 * name: a named type by its own name (`names` renames some), an anonymous one by `hint`, the
 * name of where it stands. A type already in `types` is referred to as it is there.
 */
function typeSpec(checker, type, at) {
  // Before taking null out: what is left of `unknown` without it is `{}`.
  if (type.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) return ANY;
  type = checker.getNonNullableType(type);
  const f = type.flags;
  if (f & ts.TypeFlags.BooleanLike) return { type: "boolean" };
  if (f & ts.TypeFlags.StringLike) return { type: "string" };
  if (f & ts.TypeFlags.NumberLike) return { type: "number" };
  if (type.isUnion()) {
    const kinds = new Set(type.types.map((t) => JSON.stringify(typeSpec(checker, t, at))));
    return kinds.size === 1 ? JSON.parse([...kinds][0]) : ANY;
  }
  if (checker.isArrayType(type)) {
    return { type: "array", items: typeSpec(checker, checker.getTypeArguments(type)[0], at) };
  }
  const name = (type.aliasSymbol ?? type.getSymbol())?.getName();
  // A secret carried as an Output (getDatabaseConnection's connectionUrl): its value's type.
  if (name === "Output" || name === "OutputInstance") {
    const [inner] = type.aliasTypeArguments ?? checker.getTypeArguments(type) ?? [];
    return inner ? typeSpec(checker, inner, at) : ANY;
  }
  if (!isData(checker, type)) {
    throw new Error(`no package-schema type for ${checker.typeToString(type)}: it is no data`);
  }
  const index = checker.getIndexInfosOfType(type)[0];
  if (index && checker.getPropertiesOfType(type).length === 0) {
    return { type: "object", additionalProperties: typeSpec(checker, index.type, at) };
  }
  const own = name && /^[A-Z]/.test(name) && name !== "__type" ? name : undefined;
  const typeName = own ? (at.names[own] ?? own) : at.hint;
  if (!at.types[typeName]) {
    at.types[typeName] = { type: "object", description: "", properties: {} };
    Object.assign(at.types[typeName], objectSpec(checker, type, { ...at, hint: typeName }));
  }
  return ref(typeName);
}

const ref = (typeName) => ({ $ref: `#/types/hosting:index:${typeName}` });

/** The properties and required names of an object type (of every member of a union). */
function objectSpec(checker, type, at) {
  const members = type.isUnion() ? type.types : [type];
  const properties = {};
  const required = [];
  for (const member of members) {
    for (const p of checker.getPropertiesOfType(member)) {
      if (properties[p.name]) continue;
      const decl = p.valueDeclaration ?? p.declarations?.[0];
      const t = decl ? checker.getTypeOfSymbolAtLocation(p, decl) : undefined;
      if (!t || checker.getNonNullableType(t).flags & ts.TypeFlags.Never) continue;
      const hint = `${at.hint}${p.name[0].toUpperCase()}${p.name.slice(1)}`;
      const spec = typeSpec(checker, t, { ...at, hint });
      const doc = one(ts.displayPartsToString(p.getDocumentationComment(checker)));
      const secret = /Output/.test(checker.typeToString(checker.getNonNullableType(t)));
      properties[p.name] = {
        ...spec,
        ...(doc ? { description: doc } : {}),
        ...(secret ? { secret } : {}),
      };
      const optional = (p.flags & ts.SymbolFlags.Optional) !== 0 || members.length > 1;
      if (!optional) required.push(p.name);
    }
  }
  return { properties, ...(required.length > 0 ? { required } : {}) };
}

/** Every data source (getX, not getXOutput) as a schema function; lists come as `items`. */
function functionSpecs(checker, symbols, at) {
  const functions = {};
  const names = [...symbols.keys()].filter((n) => /^get[A-Z]\w*$/.test(n) && !n.endsWith("Output"));
  for (const name of names.sort()) {
    const fn = symbols.get(name);
    const sig = checker.getSignaturesOfType(checker.getTypeOfSymbol(fn), ts.SignatureKind.Call)[0];
    const param = sig.parameters[0];
    const argType = param ? checker.getTypeOfSymbol(param) : undefined;
    const inputs = argType
      ? objectSpec(checker, checker.getNonNullableType(argType), { ...at, hint: `${name}Args` })
      : { properties: {} };
    let result = checker.getReturnTypeOfSignature(sig);
    result = checker.getPromisedTypeOfPromise(result) ?? result;
    const Name = name[0].toUpperCase() + name.slice(1);
    const outputs = checker.isArrayType(result)
      ? {
          properties: {
            items: {
              ...typeSpec(checker, result, { ...at, hint: `${Name.slice(3)}Item` }),
              description: "The list.",
            },
          },
          required: ["items"],
        }
      : objectSpec(checker, result, { ...at, hint: `${Name}Result` });
    const description = one(ts.displayPartsToString(fn.getDocumentationComment(checker)));
    functions[name] = { description, inputs, outputs };
  }
  return functions;
}

/**
 * The package's types, with the fields' declared types (`type` texts, in `texts`) as declarations
 * of their own beside src/index.ts, where every name the package exports is in scope.
 */
function typesProgram(texts) {
  const { exportsOfIndex, readIndexExports, INDEX, OPTIONS } = require("./reference-docs");
  const index = exportsOfIndex();
  const names = [...index.symbols.keys()];
  const text = [
    `import type { ${names.join(", ")} } from "./index";`,
    ...texts.map((t, i) => `export declare const t${i}: ${t};`),
  ].join("\n");
  // The package's files as the index's program parsed them: only the declared types are new.
  const before = index.program;
  const host = ts.createCompilerHost(OPTIONS);
  const { getSourceFile, fileExists, readFile } = host;
  host.getSourceFile = (f, ...rest) =>
    f === DECLARED
      ? ts.createSourceFile(f, text, OPTIONS.target)
      : (before.getSourceFile(f) ?? getSourceFile(f, ...rest));
  host.fileExists = (f) => f === DECLARED || fileExists(f);
  host.readFile = (f) => (f === DECLARED ? text : readFile(f));
  const program = ts.createProgram([INDEX, DECLARED], OPTIONS, host, before);
  const file = program.getSourceFile(DECLARED);
  const checker = program.getTypeChecker();
  const types = checker.getExportsOfModule(checker.getSymbolAtLocation(file)).map((s) => ({
    at: Number(s.name.slice(1)),
    type: checker.getTypeOfSymbol(s),
  }));
  return {
    ...readIndexExports(program),
    declared: types.sort((a, b) => a.at - b.at).map((t) => t.type),
    problems: program.getSemanticDiagnostics(file).map((d) => ({
      at: Number(text.slice(0, d.start).split("\n").length - 2),
      text: ts.flattenDiagnosticMessageText(d.messageText, " "),
    })),
  };
}

/**
 * The schema's resources from `declarations` (by kind), each field's type through the converter,
 * and with `withFunctions` the data sources as functions; `types`: the object types they name.
 */
function specs(declarations, withFunctions) {
  const { commentOf } = require("./reference-docs");
  const { objectTypes, objectTypeNames } = dist("native", "schema-types");
  const { resourceSpec } = dist("native", "package-schema");
  const { accountField } = dist("provider", "fields");
  const fields = Object.entries(declarations).flatMap(([kind, d]) =>
    Object.entries({ ...d.fields, account: accountField }).map(([key, f]) => ({ kind, key, f })),
  );
  const { checker, symbols, declared, problems } = typesProgram(fields.map((x) => x.f.type));
  const named = (x) => (x ? `${x.kind}.${x.key} (declared type "${x.f.type}"): ` : "");
  if (problems.length > 0) {
    const said = problems.map((p) => `${named(fields[p.at])}${p.text}`).join("; ");
    throw new Error(`the declared types do not compile: ${said}`);
  }
  const at = { types: { ...objectTypes }, names: objectTypeNames };
  const typeOf = new Map(
    fields.map((x, i) => {
      const hint = `${x.kind}${x.key[0].toUpperCase()}${x.key.slice(1)}`;
      try {
        return [`${x.kind}.${x.key}`, typeSpec(checker, declared[i], { ...at, hint })];
      } catch (err) {
        throw new Error(`${named(x)}${err.message}`);
      }
    }),
  );
  const resources = Object.fromEntries(
    Object.entries(declarations).map(([kind, d]) => {
      const description = one(commentOf(checker, symbols.get(kind)).text);
      return [kind, resourceSpec(description, d, (key) => typeOf.get(`${kind}.${key}`))];
    }),
  );
  const functions = withFunctions ? functionSpecs(checker, symbols, at) : {};
  return { resources, functions, types: at.types };
}

/** One resource's schema from a declaration of kind `kind` (say, a copy with a field more). */
const resourceSchema = (kind, declaration) => specs({ [kind]: declaration }, false).resources[kind];

/** The schema as an object. */
function schema() {
  const { resourceDeclarations } = dist("provider", "declarations");
  const { packageSchema } = dist("native", "package-schema");
  const { version } = require(path.join(ROOT, "package.json"));
  const { resources, functions, types } = specs(resourceDeclarations, true);
  return packageSchema(version, resources, functions, types);
}

const text = () => `${JSON.stringify(schema(), null, 2)}\n`;

module.exports = { schema, text, resourceSchema, OUT };

if (require.main === module) {
  fs.writeFileSync(OUT, text());
}
