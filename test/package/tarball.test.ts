import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { packedTarball } from "../helpers/packed-tarball";
import { ROOT } from "../helpers/pulumi-parts";

/*
 * What `npm pack` ships, and what a provider user gets from it: the tarball installed into a
 * fresh folder outside this repository (so nothing resolves from the repo's node_modules). One
 * pack (shared with test/types) and one folder: first a provider user's install, then the
 * emulator's peers added to it as an emulator user would.
 */

const npm = (args: string[], cwd: string) =>
  spawnSync("npm", args, {
    cwd,
    encoding: "utf8",
    env: { ...process.env, npm_config_fund: "false" },
  });

let tgz: string;
beforeAll(async () => {
  tgz = await packedTarball();
}, 240_000);

/** The files in the tarball, as npm lists them (without its `package/` prefix). */
function packedFiles(): string[] {
  return execFileSync("tar", ["-tzf", tgz], { encoding: "utf8" })
    .split("\n")
    .filter((l) => l && !l.endsWith("/"))
    .map((l) => l.replace(/^package\//, ""))
    .sort();
}

describe("npm pack", () => {
  let files: string[];
  beforeAll(() => {
    files = packedFiles();
  });

  test("ships README, CHANGELOG, the reference pages, LICENSE, package.json, the plugin folder and, per src/ module, its .js, .d.ts and .js.map", () => {
    const modules = readdirSync(join(ROOT, "src"), { recursive: true, encoding: "utf8" })
      .filter((f) => f.endsWith(".ts"))
      .map((f) => `dist/${f.replace(/\.ts$/, "")}`);
    const pages = readdirSync(join(ROOT, "docs", "reference")).map((f) => `docs/reference/${f}`);
    const expected = [
      "CHANGELOG.md",
      "LICENSE",
      "README.md",
      ...pages,
      "package.json",
      "plugin/pulumi-resource-hosting",
      "plugin/pulumi-resource-hosting.cmd",
      "plugin/schema.json",
      "scripts/native-migration.js",
      ...modules.flatMap((m) => [`${m}.js`, `${m}.d.ts`, `${m}.js.map`]),
    ].sort();
    expect(files).toEqual(expected);
  });

  test("every relative link of the packed Markdown reaches a packed file, and its anchor a heading", () => {
    const dir = mkdtempSync(join(tmpdir(), "hosting-links-"));
    try {
      execFileSync("tar", ["-xzf", tgz, "-C", dir]);
      const root = join(dir, "package");
      const broken: string[] = [];
      for (const md of files.filter((f) => f.endsWith(".md"))) {
        // Code blocks and inline code hold no links (a pattern may look like one).
        const text = readFileSync(join(root, md), "utf8")
          .replace(/```[\s\S]*?```/g, "")
          .replace(/`[^`\n]*`/g, "");
        for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
          if (/^[a-z]+:/i.test(target)) continue;
          const [file, anchor] = target.split("#");
          const path = file ? join(md, "..", file) : md;
          if (!files.includes(path)) {
            broken.push(`${md}: ${target} (no ${path} in the package)`);
          } else if (anchor && !anchorsOf(readFileSync(join(root, path), "utf8")).has(anchor)) {
            broken.push(`${md}: ${target} (no heading #${anchor} in ${path})`);
          }
        }
      }
      expect(broken).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("the plugin's executable stays executable, so the CLI runs it as a plugin", () => {
    const listing = execFileSync("tar", ["-tvzf", tgz], { encoding: "utf8" });
    const line = listing
      .split("\n")
      .find((l) => l.endsWith("package/plugin/pulumi-resource-hosting"));
    expect(line).toMatch(/^-rwx/);
  });

  test("LICENSE is the Apache-2.0 text the package.json names", () => {
    expect(JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).license).toBe("Apache-2.0");
    const text = readFileSync(join(ROOT, "LICENSE"), "utf8");
    expect(text).toContain("Apache License\n                           Version 2.0, January 2004");
    expect(text).toContain("END OF TERMS AND CONDITIONS");
  });

  test("every source map carries its sources, so stack traces resolve without src/", () => {
    for (const f of files.filter((p) => p.endsWith(".js.map"))) {
      const map = JSON.parse(readFileSync(join(ROOT, f), "utf8")) as {
        sources: string[];
        sourcesContent?: Array<string | null>;
      };
      expect({ f, n: map.sourcesContent?.filter((c) => typeof c === "string").length }).toEqual({
        f,
        n: map.sources.length,
      });
      const js = readFileSync(join(ROOT, f.replace(/\.map$/, "")), "utf8");
      expect(js).toContain(`//# sourceMappingURL=${f.split("/").pop()}`);
    }
  });
});

/** The anchors GitHub and npm give a Markdown file's headings. */
function anchorsOf(markdown: string): Set<string> {
  const text = markdown.replace(/```[\s\S]*?```/g, "");
  const slugs = [...text.matchAll(/^#{1,6} (.+)$/gm)].map(([, h]) =>
    h
      .toLowerCase()
      .replace(/[^\p{L}\p{N} _-]/gu, "")
      .replace(/ /g, "-"),
  );
  return new Set(slugs);
}

const rootPackage = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
  version: string;
  peerDependencies: Record<string, string>;
  overrides: Record<string, unknown>;
};

/**
 * A user's folder outside this repository, made before and removed after the enclosing
 * describe's tests; `install` runs `npm install` in it and gives npm's stderr. Each kind of user
 * gets a folder of its own, so either describe runs alone or first.
 */
function userFolder() {
  const ctx = { dir: "" };
  beforeAll(() => {
    ctx.dir = mkdtempSync(join(tmpdir(), "hosting-user-"));
    writeFileSync(join(ctx.dir, "package.json"), JSON.stringify({ name: "user", private: true }));
  });
  afterAll(() => rmSync(ctx.dir, { recursive: true, force: true }));
  return {
    get dir() {
      return ctx.dir;
    },
    install(args: string[]): string {
      const r = npm(["install", "--prefer-offline", "--no-audit", ...args], ctx.dir);
      if (r.status !== 0) throw new Error(`npm install failed:\n${r.stderr}`);
      return r.stderr;
    },
  };
}

describe("a provider user's install (--omit=dev) of the packed tarball", () => {
  const user = userFolder();
  let dir: string;
  let installLog: string;
  beforeAll(() => {
    dir = user.dir;
    installLog = user.install([tgz, "--omit=dev"]);
  }, 240_000);

  const node = (code: string) =>
    spawnSync(process.execPath, ["-e", code], { cwd: dir, encoding: "utf8" });

  test("installs no server: fastify and @fastify/multipart are absent", () => {
    expect(existsSync(join(dir, "node_modules", "fastify"))).toBe(false);
    expect(existsSync(join(dir, "node_modules", "@fastify", "multipart"))).toBe(false);
    expect(node('require.resolve("fastify")').status).not.toBe(0);
  });

  test("prints no engine warning on Node 20 (fastify's cookie wants Node 22)", () => {
    expect(installLog).not.toContain("EBADENGINE");
  });

  test('require("pulumi-hosting/package.json") gives the version (tools read it so)', () => {
    const r = node('process.stdout.write(require("pulumi-hosting/package.json").version)');
    expect({ status: r.status, stderr: r.stderr, version: r.stdout }).toEqual({
      status: 0,
      stderr: "",
      version: rootPackage.version,
    });
  });

  test("runs no install script of its own, and npm 11 flags none for approval", () => {
    const shipped = JSON.parse(
      readFileSync(join(dir, "node_modules", "pulumi-hosting", "package.json"), "utf8"),
    ) as { scripts?: Record<string, string> };
    const lifecycle = ["preinstall", "install", "postinstall", "prepare"];
    expect(Object.keys(shipped.scripts ?? {}).filter((s) => lifecycle.includes(s))).toEqual([]);
    expect(installLog).not.toMatch(/install-scripts.*pulumi-hosting/);
  });

  test('require("pulumi-hosting") and the client load', () => {
    const r = node(
      'const h = require("pulumi-hosting"); const c = require("pulumi-hosting/client");' +
        'if (typeof h.App !== "function" || typeof c.HostingClient !== "function") process.exit(3);',
    );
    expect({ status: r.status, stderr: r.stderr }).toEqual({ status: 0, stderr: "" });
  });

  test("the emulator entry and bin name the packages to install", () => {
    const lib = node('require("pulumi-hosting/emulator")');
    expect(lib.status).not.toBe(0);
    expect(lib.stderr).toContain("HostingEmulatorMissingDependencyError");
    expect(lib.stderr).toContain("npm install --save-dev fastify@^5 @fastify/multipart@^9");
    const bin = spawnSync(join(dir, "node_modules", ".bin", "hosting-emulator"), [], {
      cwd: dir,
      encoding: "utf8",
    });
    expect(bin.status).toBe(1);
    expect(bin.stderr.trim()).toBe(
      "hosting-emulator: The Hosting emulator needs fastify and @fastify/multipart, which " +
        "pulumi-hosting leaves out of a provider install. Install them where you run the " +
        "emulator: npm install --save-dev fastify@^5 @fastify/multipart@^9",
    );
  });
});

describe("an emulator user's install: the tarball and the emulator's peers", () => {
  const user = userFolder();
  let dir: string;
  let installLog: string;
  beforeAll(() => {
    dir = user.dir;
    // The README's recipe: the package, then the peers added as dev dependencies, with (for
    // Node 20) the same override this repository uses.
    const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as object;
    writeFileSync(
      join(dir, "package.json"),
      JSON.stringify({ ...manifest, overrides: rootPackage.overrides }),
    );
    user.install([tgz]);
    const peers = ["fastify", "@fastify/multipart"].map(
      (p) => `${p}@${rootPackage.peerDependencies[p]}`,
    );
    installLog = user.install(["--save-dev", ...peers]);
    // Still the packed tarball's package, now beside the emulator's server.
    expect(existsSync(join(dir, "node_modules", "fastify"))).toBe(true);
  }, 240_000);

  test("prints no engine warning on the Node versions the README promises", () => {
    expect(installLog).not.toContain("EBADENGINE");
  });

  test("the installed bin answers a misspelt option with the nearest one", () => {
    const bin = spawnSync(join(dir, "node_modules", ".bin", "hosting-emulator"), ["--prot", "1"], {
      cwd: dir,
      encoding: "utf8",
    });
    expect(bin.status).toBe(2);
    expect(bin.stderr).toContain("did you mean --port?");
    expect(bin.stderr).toContain("--help");
  });

  test("the emulator starts and stops from the installed package", () => {
    const r = spawnSync(
      process.execPath,
      [
        "-e",
        'require("pulumi-hosting/emulator").startEmulator().then(async (e) => {' +
          " const r = await fetch(`${e.url}/__emulator/stats`); await e.stop();" +
          " process.stdout.write(String(r.status)); })",
      ],
      { cwd: dir, encoding: "utf8", timeout: 60_000 },
    );
    expect({ status: r.status, stdout: r.stdout, stderr: r.stderr }).toEqual({
      status: 0,
      stdout: "200",
      stderr: "",
    });
  });
});
