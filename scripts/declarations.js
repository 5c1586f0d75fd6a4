/*
 * Writes the declarations that follow from an App's field declaration (src/provider/app/fields.ts)
 * and from the wire type the spec defines (AppSummary in src/api/types.ts), between
 * `// <declarations: …>` and `// </declarations>` in the files that hold them:
 *
 * - AppArgs and the App's outputs (src/provider/app/resource.ts), with each field's doc: the
 *   hover text users read, which a mapped type would lose;
 * - AppManifest (src/api/manifest.ts): each input with a `wire` key;
 * - the reply schema of an app (src/api/schemas.ts) and AppInfo (src/data/results.ts), from
 *   AppSummary, camelCased.
 *
 * Read from source, not from dist/: it runs before the build. A field read from the service
 * (`from`) that AppSummary lacks is refused here, naming the file to write.
 *
 * `node scripts/declarations.js` (`npm run declarations`) writes them; `--check` fails when a
 * committed file is not what the declarations give (test/structure/declarations.test.ts).
 */
const fs = require("node:fs");
const path = require("node:path");
const ts = require("typescript");

const ROOT = path.resolve(__dirname, "..");

/** A module of src/ that has no run-time import (a declaration), compiled and run here. */
function loadModule(file) {
  const source = fs.readFileSync(path.join(ROOT, file), "utf8");
  const { outputText } = ts.transpileModule(source, {
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 },
  });
  const module = { exports: {} };
  const refuse = (name) => {
    throw new Error(`${file} imports ${name} at run time; a declaration may import types only`);
  };
  new Function("module", "exports", "require", outputText)(module, module.exports, refuse);
  return module.exports;
}

/** The members of `name`, an interface of `file`, in order: name, optional, type, doc, tags. */
function interfaceMembers(file, name) {
  const text = fs.readFileSync(path.join(ROOT, file), "utf8");
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true);
  const found = sf.statements.find((s) => ts.isInterfaceDeclaration(s) && s.name.text === name);
  if (found === undefined) throw new Error(`${file} has no interface ${name}`);
  return found.members.map((m) => {
    if (!ts.isPropertySignature(m) || m.type === undefined) {
      throw new Error(`${file}: ${name} holds something other than a typed property`);
    }
    const jsDoc = ts.getJSDocCommentsAndTags(m).find(ts.isJSDoc);
    // A comment with a {@link} comes as parts: joined, it is the text as written.
    const doc = ts.getTextOfJSDocComment(jsDoc?.comment);
    if (!doc) throw new Error(`${file}: ${name}.${m.name.getText()} has no doc`);
    const tags = (jsDoc.tags ?? []).map((t) =>
      `@${t.tagName.text} ${ts.getTextOfJSDocComment(t.comment) ?? ""}`.trim(),
    );
    return {
      key: m.name.getText(),
      optional: !!m.questionToken,
      type: m.type.getText(),
      doc,
      tags,
    };
  });
}

/**
 * A JSDoc comment of `text` (and tags), one line when it fits in `width`, else wrapped; white
 * space is one space, as the hover text shows it.
 */
function docComment(width, indent, text, tags = []) {
  if ([text, ...tags].some((t) => t.includes("*/"))) {
    throw new Error(`a doc holds "*/", which would end its comment: ${JSON.stringify(text)}`);
  }
  const pad = " ".repeat(indent);
  const one = `${pad}/** ${text.trim().split(/\s+/).join(" ")} */`;
  if (tags.length === 0 && one.length <= width) return [one];
  const lines = [];
  for (const paragraph of [text, ...tags]) {
    let line = "";
    for (const word of paragraph.trim().split(/\s+/)) {
      if (line !== "" && `${pad} * ${line} ${word}`.length > width) {
        lines.push(line);
        line = word;
      } else line = line === "" ? word : `${line} ${word}`;
    }
    lines.push(line);
  }
  return [`${pad}/**`, ...lines.map((l) => `${pad} * ${l}`), `${pad} */`];
}

/** The type inside `pulumi.Input<…>` of an App input. */
function argType(key, field) {
  if (field.argType !== undefined) return field.argType;
  if (["string", "number", "boolean"].includes(field.type)) return field.type;
  const record = /^Record<string, (string|number|boolean)>$/.exec(field.type);
  if (record) return `Record<string, pulumi.Input<${record[1]}>>`;
  throw new Error(`appFields.${key}: no Args type for "${field.type}"; declare its argType`);
}

/** The type inside `pulumi.Output<…>`: undefined too for an unset input nothing fills in. */
function outputType(field) {
  const type = field.outputType ?? field.type;
  const unset = field.input === "optional" && field.from === undefined;
  return unset && !/\bundefined\b/.test(type) ? `${type} | undefined` : type;
}

/** The type of a manifest entry: the Args type without Pulumi's wrappers. */
function manifestType(key, field) {
  if (/^[a-z]+$/.test(field.type) || field.type.startsWith("{")) return field.type;
  throw new Error(`appFields.${key}: no manifest type for "${field.type}"`);
}

const ZOD = {
  string: "z.string()",
  Integer: "z.number().int()",
  number: "z.number()",
  boolean: "z.boolean()",
  "string | null": "z.string().nullable()",
  "DateTimeString | null": "nullableDateTime",
};

/** The aliases that only name the spec's kind of value, as AppInfo gives them to a program. */
const PLAIN_TYPES = { Integer: "number", DateTimeString: "string" };

/** Each written part: the file, the marker's name, and its lines, wrapped at `width`. */
function parts(width) {
  const { appFields } = loadModule("src/provider/app/fields.ts");
  const { camelKey } = loadModule("src/base/camel.ts");
  const summary = interfaceMembers("src/api/types.ts", "AppSummary");
  const wireKeys = new Set(summary.map((m) => m.key));
  const fields = Object.entries(appFields);
  for (const [key, f] of fields) {
    const top = f.from?.split(".")[0];
    if (top !== undefined && !wireKeys.has(top)) {
      throw new Error(
        `appFields.${key} is read from "${top}": add ${top} to AppSummary (src/api/types.ts)`,
      );
    }
  }
  const inputs = fields.filter(([, f]) => f.input === "required" || f.input === "optional");
  return [
    {
      file: "src/provider/app/resource.ts",
      name: "AppArgs",
      lines: inputs.flatMap(([key, f]) => [
        ...docComment(width, 2, f.doc),
        `  ${key}${f.input === "optional" ? "?" : ""}: pulumi.Input<${argType(key, f)}>;`,
      ]),
    },
    {
      file: "src/provider/app/resource.ts",
      name: "App outputs",
      lines: fields.flatMap(([key, f]) => [
        ...docComment(
          width,
          2,
          f.outputDoc ?? f.doc,
          f.deprecated ? [`@deprecated ${f.deprecated}`] : [],
        ),
        `  declare readonly ${key}: pulumi.Output<${outputType(f)}>;`,
      ]),
    },
    {
      file: "src/api/manifest.ts",
      name: "AppManifest",
      lines: fields
        .filter(([, f]) => f.wire !== undefined)
        .map(([key, f]) => {
          const always = f.input === "required" || f.checkFills === true;
          return `  ${f.wire}${always ? "" : "?"}: ${manifestType(key, f)};`;
        }),
    },
    {
      file: "src/api/schemas.ts",
      name: "appSummarySchema",
      lines: summary.map((m) => {
        const zod = ZOD[m.type];
        if (zod === undefined) throw new Error(`AppSummary.${m.key}: no schema for "${m.type}"`);
        return `  ${m.key}: ${zod}${m.optional ? ".optional()" : ""},`;
      }),
    },
    {
      file: "src/data/results.ts",
      name: "AppInfo",
      lines: summary.flatMap((m) => [
        ...docComment(width, 2, m.doc, m.tags),
        `  ${camelKey(m.key)}${m.optional ? "?" : ""}: ${m.type.replace(/\w+/g, (w) => PLAIN_TYPES[w] ?? w)};`,
      ]),
    },
  ];
}

/** `text` with each of its parts rewritten between its markers. */
function rewrite(file, text, written) {
  let out = text;
  for (const part of written) {
    const open = `// <declarations: ${part.name}>`;
    const start = out.indexOf(open);
    if (start < 0) throw new Error(`${file}: no "${open}"`);
    const end = out.indexOf("// </declarations>", start);
    const next = out.indexOf("// <declarations:", start + open.length);
    if (end < 0 || (next >= 0 && next < end)) {
      throw new Error(`${file}: "${open}" has no "// </declarations>" before the next part`);
    }
    const body = out.indexOf("\n", start) + 1;
    const close = out.lastIndexOf("\n", end) + 1;
    out = out.slice(0, body) + part.lines.map((l) => `${l}\n`).join("") + out.slice(close);
  }
  return out;
}

/** Each file with a written part: its path, what it holds, what the declarations give. */
async function files() {
  const prettier = await import("prettier");
  // One width for the docs written and the code Prettier formats around them.
  const options = await prettier.resolveConfig(path.join(ROOT, "src", "index.ts"));
  const byFile = new Map();
  for (const p of parts(options?.printWidth ?? 80)) {
    byFile.set(p.file, [...(byFile.get(p.file) ?? []), p]);
  }
  const out = [];
  for (const [file, written] of byFile) {
    const full = path.join(ROOT, file);
    const now = fs.readFileSync(full, "utf8");
    let given;
    try {
      given = await prettier.format(rewrite(file, now, written), { ...options, filepath: full });
    } catch (err) {
      throw new Error(`${file}: ${err.message.split("\n")[0]}`);
    }
    out.push({ file, full, now, given });
  }
  return out;
}

async function main() {
  const check = process.argv.includes("--check");
  const stale = [];
  for (const f of await files()) {
    if (f.now === f.given) continue;
    stale.push(f.file);
    if (check) continue;
    // Whole or not at all: an interrupted write leaves the file as it was.
    fs.writeFileSync(`${f.full}.declarations-tmp`, f.given);
    fs.renameSync(`${f.full}.declarations-tmp`, f.full);
  }
  if (check && stale.length > 0) {
    // Prettier's formatting is part of what they give (CRLF line endings differ too).
    console.error(`not what the declarations give (run npm run declarations): ${stale.join(", ")}`);
    process.exitCode = 1;
  } else if (!check) {
    console.log(
      stale.length === 0 ? "declarations: current" : `declarations: wrote ${stale.join(", ")}`,
    );
  }
}

main().catch((err) => {
  console.error(`declarations: ${err.message}`);
  process.exitCode = 1;
});
