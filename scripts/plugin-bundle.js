/*
 * Writes plugin/pulumi-resource-hosting, the native plugin as one file: the provider (dist/),
 * @pulumi/pulumi's provider server, gRPC, every dependency and the package schema, bundled by
 * esbuild, so it runs from any folder with only `node` on PATH. `pulumi plugin install … --file`
 * copies that one file (or the folder holding it) and the engine runs it as it is.
 * build.js runs it after the schema; `node scripts/plugin-bundle.js` alone rebuilds it from dist/.
 */
const fs = require("node:fs");
const path = require("node:path");

const ROOT = path.resolve(__dirname, "..");
const PLUGIN_DIR = path.join(ROOT, "plugin");
const NAME = "pulumi-resource-hosting";
const OUT = path.join(PLUGIN_DIR, NAME);

// @pulumi/pulumi loads these at start to serialize closures (dynamic providers), which the plugin
// never does: 9 MB of the bundle's 13 MB. A stand-in that throws when used takes their place.
const LEFT_OUT = ["typescript", "@npmcli/arborist"];

/*
 * Below a package.json with "type": "module" (in a home folder, say), Node loads an extensionless
 * file as an ES module, where `require` is missing. Then the file compiles itself again as
 * CommonJS; the bundle's body is in the `else` branch. Node has process.getBuiltinModule from
 * 20.16 (engines: >=20.18.1).
 */
const banner = (version) => `#!/usr/bin/env node
// ${NAME} ${version}: the native Pulumi plugin of pulumi-hosting, built by scripts/plugin-bundle.js.
if (typeof require === "undefined") {
  const Module = process.getBuiltinModule("node:module");
  const file = process.argv[1];
  const m = new Module(file);
  m.filename = file;
  m._compile(process.getBuiltinModule("node:fs").readFileSync(file, "utf8"), file);
} else {`;

/** The package folder (under node_modules) that a bundled input file belongs to. */
function packageOf(input) {
  const parts = input.split("/");
  const at = parts.lastIndexOf("node_modules");
  if (at < 0) return undefined;
  const depth = parts[at + 1]?.startsWith("@") ? 3 : 2;
  return parts.slice(0, at + depth).join("/");
}

/** The bundled packages with their license texts, as a comment that ends the file. */
function notices(metafile) {
  const dirs = [...new Set(Object.keys(metafile.inputs).map(packageOf).filter(Boolean))].sort();
  const entries = dirs.map((dir) => {
    const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, dir, "package.json"), "utf8"));
    const file = fs
      .readdirSync(path.join(ROOT, dir))
      .find((f) => /^(licen[cs]e|copying)(\.|$)/i.test(f));
    const text = file ? fs.readFileSync(path.join(ROOT, dir, file), "utf8").trim() : "";
    const license = typeof manifest.license === "string" ? manifest.license : "see its package";
    return { id: `${manifest.name}@${manifest.version}`, license, text };
  });
  const body = entries
    .map((e) => [`== ${e.id} (${e.license})`, e.text].filter(Boolean).join("\n\n"))
    .join("\n\n");
  return `/*! Third-party software bundled in this file, with its license:\n\n${body.replaceAll("*/", "* /")}\n*/\n`;
}

/** Fails when two copies of gRPC are bundled: the Configure wrapper (main.ts) patches one. */
function checkOneGrpc(metafile) {
  const copies = new Set(
    Object.keys(metafile.inputs)
      .map(packageOf)
      .filter((dir) => dir?.endsWith("node_modules/@grpc/grpc-js")),
  );
  if (copies.size !== 1) {
    throw new Error(`the plugin must bundle one @grpc/grpc-js, found ${[...copies].join(", ")}`);
  }
}

/** Builds plugin/pulumi-resource-hosting from dist/ and plugin/schema.json (build them first). */
function bundle() {
  const esbuild = require("esbuild");
  const { version } = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8"));
  const stub = path.join(__dirname, "plugin-left-out.js");
  const result = esbuild.buildSync({
    stdin: {
      contents: 'require("./dist/native/main").main(process.argv.slice(2));',
      resolveDir: ROOT,
      sourcefile: "plugin-entry.js",
    },
    absWorkingDir: ROOT,
    bundle: true,
    platform: "node",
    target: "node20.18",
    format: "cjs",
    alias: Object.fromEntries(LEFT_OUT.map((m) => [m, stub])),
    // Not minified: Node prints the source line of an error it cannot catch, and a user would
    // get a megabyte of one line.
    legalComments: "eof",
    banner: { js: banner(version) },
    footer: { js: "}" },
    metafile: true,
    write: false,
    logLevel: "silent",
  });
  // A warning (a require esbuild cannot follow, say) would be a module missing at run time.
  if (result.warnings.length > 0) {
    const where = (w) => (w.location ? ` (${w.location.file}:${w.location.line})` : "");
    throw new Error(result.warnings.map((w) => `${w.text}${where(w)}`).join("; "));
  }
  checkOneGrpc(result.metafile);
  const [out] = result.outputFiles;
  const tmp = `${OUT}.tmp-${process.pid}`;
  fs.writeFileSync(tmp, `${out.text}${notices(result.metafile)}`, { mode: 0o755 });
  fs.chmodSync(tmp, 0o755);
  fs.renameSync(tmp, OUT);
}

module.exports = { bundle, OUT, NAME, PLUGIN_DIR };

if (require.main === module) {
  try {
    bundle();
  } catch (err) {
    console.error(`plugin-bundle: ${err.message}`);
    process.exit(1);
  }
}
