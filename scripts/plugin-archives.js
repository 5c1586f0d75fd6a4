/*
 * Writes the native plugin's release archives, pulumi-resource-hosting-v<version>-<os>-<arch>.tar.gz
 * for linux, darwin and windows × amd64 and arm64: the names `pulumi plugin install resource
 * hosting <version>` downloads from the schema's pluginDownloadURL (a GitHub release) or from
 * `--server <url>`, and takes by `--file <archive>`. The plugin is one JavaScript file, so every
 * archive holds the same one (mode 0755), schema.json and LICENSE; the windows ones also hold
 * pulumi-resource-hosting.cmd, which Pulumi runs there (it looks for .exe, then .cmd).
 * Usage: node scripts/plugin-archives.js [out-dir]   (default plugin-archives/; builds if stale)
 */
const fs = require("node:fs");
const path = require("node:path");
const { NAME, PLUGIN_DIR } = require("./plugin-bundle");
const { tarGz } = require("./tar-gz");

const ROOT = path.resolve(__dirname, "..");
const OSES = ["linux", "darwin", "windows"];
const ARCHES = ["amd64", "arm64"];
const TARGETS = OSES.flatMap((os) => ARCHES.map((arch) => ({ os, arch })));

const archiveName = (version, os, arch) => `${NAME}-v${version}-${os}-${arch}.tar.gz`;

/** The files of one target's archive, in order. */
function filesOf(os) {
  const file = (name, from, mode) => ({ name, data: fs.readFileSync(from), mode });
  return [
    file(NAME, path.join(PLUGIN_DIR, NAME), 0o755),
    ...(os === "windows" ? [file(`${NAME}.cmd`, path.join(PLUGIN_DIR, `${NAME}.cmd`), 0o755)] : []),
    file("schema.json", path.join(PLUGIN_DIR, "schema.json"), 0o644),
    file("LICENSE", path.join(ROOT, "LICENSE"), 0o644),
  ];
}

/**
 * Writes every target's archive into `outDir` (made if missing) from the built plugin/ folder;
 * returns their paths.
 */
function writeArchives(outDir) {
  const { version } = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8"));
  fs.mkdirSync(outDir, { recursive: true });
  return TARGETS.map(({ os, arch }) => {
    const out = path.join(outDir, archiveName(version, os, arch));
    fs.writeFileSync(out, tarGz(filesOf(os)));
    return out;
  });
}

module.exports = { writeArchives, archiveName, TARGETS };

if (require.main === module) {
  try {
    require("./build").build("if-stale");
    const outDir = path.resolve(process.argv[2] ?? path.join(ROOT, "plugin-archives"));
    for (const file of writeArchives(outDir)) console.log(path.relative(process.cwd(), file));
  } catch (err) {
    console.error(`plugin-archives: ${err.message}`);
    process.exit(1);
  }
}
