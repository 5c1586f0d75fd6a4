/*
 * Writes plugin/schema.json, the Pulumi package schema of the native plugin: resources from the
 * field declarations (dist/native/package-schema.js, so build first), functions from
 * the data sources' TypeScript signatures (the same checker pass as the reference pages).
 * `node scripts/package-schema.js` writes it; `build.js` runs it after tsc.
 */
const fs = require("node:fs");
const path = require("node:path");
const ts = require("typescript");

const ROOT = path.resolve(__dirname, "..");
const OUT = path.join(ROOT, "plugin", "schema.json");
const ANY = { $ref: "pulumi.json#/Any" };

const one = (s) =>
  s
    .replace(/\{@link\s+([^}\s]+)\s*\}/g, "`$1`")
    .replace(/\s+/g, " ")
    .trim();

/** The schema type of a TypeScript type; object types are added to `types` by name. */
function typeSpec(checker, type, types, hint) {
  type = checker.getNonNullableType(type);
  const f = type.flags;
  if (f & ts.TypeFlags.BooleanLike) return { type: "boolean" };
  if (f & ts.TypeFlags.StringLike) return { type: "string" };
  if (f & ts.TypeFlags.NumberLike) return { type: "number" };
  if (type.isUnion()) {
    const kinds = new Set(type.types.map((t) => JSON.stringify(typeSpec(checker, t, types, hint))));
    return kinds.size === 1 ? JSON.parse([...kinds][0]) : ANY;
  }
  if (f & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) return ANY;
  if (checker.isArrayType(type)) {
    return {
      type: "array",
      items: typeSpec(checker, checker.getTypeArguments(type)[0], types, hint),
    };
  }
  const name = (type.aliasSymbol ?? type.getSymbol())?.getName();
  // A secret carried as an Output (getDatabaseConnection's connectionUrl): its value's type.
  if (name === "Output" || name === "OutputInstance") {
    const [inner] = type.aliasTypeArguments ?? checker.getTypeArguments(type) ?? [];
    return inner ? typeSpec(checker, inner, types, hint) : ANY;
  }
  const index = checker.getIndexInfosOfType(type)[0];
  if (index && checker.getPropertiesOfType(type).length === 0) {
    return { type: "object", additionalProperties: typeSpec(checker, index.type, types, hint) };
  }
  const typeName = name && /^[A-Z]/.test(name) && name !== "__type" ? name : hint;
  if (!types[typeName]) {
    types[typeName] = { type: "object", description: "", properties: {} };
    Object.assign(types[typeName], objectSpec(checker, type, types, typeName));
  }
  return { $ref: `#/types/hosting:index:${typeName}` };
}

/** The properties and required names of an object type (of every member of a union). */
function objectSpec(checker, type, types, hint) {
  const members = type.isUnion() ? type.types : [type];
  const properties = {};
  const required = [];
  for (const member of members) {
    for (const p of checker.getPropertiesOfType(member)) {
      if (properties[p.name]) continue;
      const decl = p.valueDeclaration ?? p.declarations?.[0];
      const t = decl ? checker.getTypeOfSymbolAtLocation(p, decl) : undefined;
      if (!t || checker.getNonNullableType(t).flags & ts.TypeFlags.Never) continue;
      const spec = typeSpec(
        checker,
        t,
        types,
        `${hint}${p.name[0].toUpperCase()}${p.name.slice(1)}`,
      );
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
function functionSpecs(checker, symbols) {
  const functions = {};
  const types = {};
  const names = [...symbols.keys()].filter((n) => /^get[A-Z]\w*$/.test(n) && !n.endsWith("Output"));
  for (const name of names.sort()) {
    const fn = symbols.get(name);
    const sig = checker.getSignaturesOfType(checker.getTypeOfSymbol(fn), ts.SignatureKind.Call)[0];
    const param = sig.parameters[0];
    const argType = param ? checker.getTypeOfSymbol(param) : undefined;
    const inputs = argType
      ? objectSpec(checker, checker.getNonNullableType(argType), types, `${name}Args`)
      : { properties: {} };
    let result = checker.getReturnTypeOfSignature(sig);
    result = checker.getPromisedTypeOfPromise(result) ?? result;
    const Name = name[0].toUpperCase() + name.slice(1);
    const outputs = checker.isArrayType(result)
      ? {
          properties: {
            items: {
              ...typeSpec(checker, result, types, `${Name.slice(3)}Item`),
              description: "The list.",
            },
          },
          required: ["items"],
        }
      : objectSpec(checker, result, types, `${Name}Result`);
    const description = one(ts.displayPartsToString(fn.getDocumentationComment(checker)));
    functions[name] = { description, inputs, outputs };
  }
  return { functions, types };
}

/** The schema as an object. */
function schema() {
  const { exportsOfIndex, commentOf } = require("./reference-docs");
  const { resourceDeclarations } = require(path.join(ROOT, "dist", "provider", "declarations"));
  const { packageSchema } = require(path.join(ROOT, "dist", "native", "package-schema"));
  const { version } = require(path.join(ROOT, "package.json"));
  const { checker, symbols } = exportsOfIndex();
  const resources = {};
  for (const [kind, declaration] of Object.entries(resourceDeclarations)) {
    resources[kind] = { description: one(commentOf(checker, symbols.get(kind)).text), declaration };
  }
  const { functions, types } = functionSpecs(checker, symbols);
  return packageSchema(version, resources, functions, types);
}

const text = () => `${JSON.stringify(schema(), null, 2)}\n`;

module.exports = { schema, text, OUT };

if (require.main === module) {
  fs.writeFileSync(OUT, text());
}
