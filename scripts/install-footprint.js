// Prints what a provider user installs: the packed tarball (plus its @pulumi/pulumi peer) into a
// fresh folder with --omit=dev, against @pulumi/pulumi alone. Usage: node scripts/install-footprint.js
const { spawnSync } = require("node:child_process");
const { lstatSync, mkdtempSync, readdirSync, rmSync, writeFileSync } = require("node:fs");
const { tmpdir } = require("node:os");
const { join } = require("node:path");

const ROOT = join(__dirname, "..");
const PULUMI = require(join(ROOT, "node_modules", "@pulumi", "pulumi", "package.json")).version;

function run(cmd, args, cwd) {
  const r = spawnSync(cmd, args, { cwd, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(" ")} failed:\n${r.stderr}`);
  return r.stdout;
}

function bytes(path) {
  const st = lstatSync(path);
  if (!st.isDirectory()) return st.size;
  return readdirSync(path).reduce((n, f) => n + bytes(join(path, f)), 0);
}

function footprint(spec, dir) {
  writeFileSync(join(dir, "package.json"), '{ "name": "user", "private": true }\n');
  run("npm", ["install", "--omit=dev", "--prefer-offline", "--no-audit", "--no-fund", spec], dir);
  const packages = run("npm", ["ls", "--all", "--parseable", "--omit=dev"], dir)
    .split("\n")
    .filter((l) => l.includes("node_modules")).length;
  return { packages, mb: bytes(join(dir, "node_modules")) / 1e6 };
}

const base = mkdtempSync(join(tmpdir(), "hosting-footprint-"));
try {
  const tgz = run("npm", ["pack", "--ignore-scripts", "--pack-destination", base], ROOT)
    .trim()
    .split("\n")
    .pop();
  const a = join(base, "with-hosting");
  const b = join(base, "pulumi-only");
  for (const d of [a, b]) run("mkdir", ["-p", d], base);
  const withHosting = footprint(join(base, tgz), a);
  const pulumiOnly = footprint(`@pulumi/pulumi@${PULUMI}`, b);
  const fmt = (f) => `${f.packages} packages, ${f.mb.toFixed(1)} MB`;
  console.log(`pulumi-hosting + @pulumi/pulumi@${PULUMI}: ${fmt(withHosting)}`);
  console.log(`@pulumi/pulumi@${PULUMI} alone:        ${fmt(pulumiOnly)}`);
  console.log(
    `added by pulumi-hosting: ${withHosting.packages - pulumiOnly.packages} packages, ` +
      `${(withHosting.mb - pulumiOnly.mb).toFixed(1)} MB`,
  );
} finally {
  rmSync(base, { recursive: true, force: true });
}
