import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { parse } from "yaml";
import { packedTarball } from "./packed-tarball";
import { ROOT } from "./pulumi-parts";
import { PulumiStack } from "./pulumi";

/*
 * An example of examples/ as a user has it after copying its folder out of the repository and
 * installing what its package.json lists: pulumi-hosting from the tarball `npm pack` makes, every
 * other package linked from this repository's node_modules (the versions the tests run), and
 * nothing else, so an import the example's package.json does not list, or a path leading out of
 * its folder, fails. Only a package that cannot be had here is replaced by a local stand-in, and
 * the copy says so.
 */

/**
 * Packages that cannot be installed here, and the local stand-in each is installed as: its code,
 * and the declarations the example type-checks against (one copy, kept in step with the real
 * package, serves the type-check test too).
 */
const STAND_INS: Record<string, { dir: string; types: string }> = {
  "@pulumi/cloudflare": {
    dir: join(__dirname, "..", "engine", "fixtures", "cloudflare-stand-in"),
    types: join(ROOT, "test", "types", "cloudflare-stub", "index.d.ts"),
  },
};

interface Manifest {
  name?: string;
  version: string;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

const readJson = <T>(file: string): T => JSON.parse(fs.readFileSync(file, "utf8")) as T;

/**
 * Whether `range` (`^x.y.z`, `~x.y.z` or `x.y.z`, the forms examples/ use) admits `version`. Any
 * other form is refused, so a range this cannot read never passes unchecked.
 */
export function admits(range: string, version: string): boolean {
  const m = /^([~^]?)(\d+)\.(\d+)\.(\d+)$/.exec(range);
  const v = /^(\d+)\.(\d+)\.(\d+)$/.exec(version);
  if (!m) throw new Error(`range "${range}": examples use ^x.y.z, ~x.y.z or x.y.z`);
  if (!v) return false;
  const [want, have] = [m.slice(2).map(Number), v.slice(1).map(Number)];
  const cmp = (a: number[], b: number[]) => a.findIndex((x, i) => x !== b[i]);
  const atLeast = (i: number) => i < 0 || have[i] > want[i];
  const first = cmp(have, want);
  if (m[1] === "") return first < 0;
  if (!atLeast(first)) return false;
  // ^ fixes the first non-zero part; ~ fixes major and minor.
  const fixed = m[1] === "~" ? 2 : want[0] > 0 ? 1 : want[1] > 0 ? 2 : 3;
  return have.slice(0, fixed).every((x, i) => x === want[i]);
}

/** A link in `dir`/node_modules to this repository's install of `name`, whose version fits. */
function linkFromRepo(dir: string, name: string, range: string, wantedBy: string): void {
  const installed = join(ROOT, "node_modules", name);
  if (!fs.existsSync(join(installed, "package.json"))) {
    throw new Error(`${wantedBy} needs ${name}, which this repository's node_modules lacks`);
  }
  const { version } = readJson<Manifest>(join(installed, "package.json"));
  if (!admits(range, version)) {
    throw new Error(`${wantedBy} asks for ${name}@${range}; the tests run ${version}`);
  }
  const link = join(dir, "node_modules", name);
  if (fs.existsSync(link)) return;
  fs.mkdirSync(dirname(link), { recursive: true });
  fs.symlinkSync(installed, link, "dir");
}

/** pulumi-hosting from the packed tarball, with the dependencies npm would install beside it. */
async function installPacked(dir: string, range: string, declared: Record<string, string>) {
  const pkg = join(dir, "node_modules", "pulumi-hosting");
  fs.mkdirSync(pkg, { recursive: true });
  execFileSync("tar", ["-xzf", await packedTarball(), "-C", pkg, "--strip-components=1"]);
  const manifest = readJson<Manifest>(join(pkg, "package.json"));
  if (!admits(range, manifest.version)) {
    throw new Error(
      `package.json asks for pulumi-hosting@${range}; the package is ${manifest.version}`,
    );
  }
  for (const [name, want] of Object.entries(manifest.dependencies ?? {})) {
    linkFromRepo(dir, name, want, "pulumi-hosting");
  }
  for (const name of Object.keys(manifest.peerDependencies ?? {})) {
    if (manifest.peerDependenciesMeta?.[name]?.optional) continue;
    if (!(name in declared)) {
      throw new Error(`pulumi-hosting needs its peer ${name} in the example's package.json`);
    }
  }
}

export interface CopiedExample {
  /** The project folder: the copy of examples/<name>, installed. */
  dir: string;
  /** The project's name, from its own Pulumi.yaml. */
  project: string;
  /** The packages installed as a local stand-in (named in the test's title). */
  standIns: string[];
  /** A stack of the copy, initialised (passphrase secrets, a file backend beside the copy). */
  stack(
    env: Record<string, string>,
    config: Record<string, string>,
    secrets: Record<string, string>,
  ): Promise<PulumiStack>;
}

/** Which packages of examples/<name>'s package.json would be stand-ins (known before copying). */
export function standInsOf(name: string): string[] {
  const manifest = readJson<Manifest>(join(ROOT, "examples", name, "package.json"));
  const all = { ...manifest.dependencies, ...manifest.devDependencies };
  return Object.keys(all).filter((d) => d in STAND_INS);
}

/** Folders above `dir` holding a node_modules, which Node would search: there must be none. */
function nodeModulesAbove(dir: string): string[] {
  const found: string[] = [];
  for (let d = dirname(dir); ; d = dirname(d)) {
    if (fs.existsSync(join(d, "node_modules"))) found.push(join(d, "node_modules"));
    if (dirname(d) === d) return found;
  }
}

/** examples/<name> copied to a fresh folder outside the repository and installed. */
export async function copyExample(name: string): Promise<CopiedExample> {
  const parent = fs.mkdtempSync(join(tmpdir(), `example-${name}-`));
  const dir = join(parent, name);
  fs.cpSync(join(ROOT, "examples", name), dir, { recursive: true });
  const above = nodeModulesAbove(dir);
  if (above.length > 0) throw new Error(`a copy in ${dir} would also load ${above.join(", ")}`);
  const manifest = readJson<Manifest>(join(dir, "package.json"));
  const declared = { ...manifest.dependencies, ...manifest.devDependencies };
  for (const [dep, range] of Object.entries(declared)) {
    if (dep === "pulumi-hosting") await installPacked(dir, range, declared);
    else if (dep in STAND_INS) {
      const installed = join(dir, "node_modules", dep);
      fs.cpSync(STAND_INS[dep].dir, installed, { recursive: true });
      fs.copyFileSync(STAND_INS[dep].types, join(installed, "index.d.ts"));
    } else linkFromRepo(dir, dep, range, `examples/${name}`);
  }
  const project = (parse(fs.readFileSync(join(dir, "Pulumi.yaml"), "utf8")) as { name: string })
    .name;
  return {
    dir,
    project,
    standIns: standInsOf(name),
    async stack(env, config, secrets) {
      const stack = new PulumiStack({ dir, project, work: join(parent, "pulumi"), env });
      // The example's own Pulumi.yaml and package.json, as copied: no init() that writes them.
      await stack.ok(["stack", "init", stack.stack, "--secrets-provider", "passphrase"]);
      await stack.setConfig(config, secrets);
      return stack;
    },
  };
}
