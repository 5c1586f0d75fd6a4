import { createWriteStream } from "node:fs";
import { chmod, mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import yazl from "yazl";
import { packageSource } from "../../src/provider/app/packaging";

/*
 * Golden content hashes, computed by the build that packed the whole source to learn them
 * (before check hashed without packing). Stacks deployed with that build hold these values: any
 * way of computing the hash must give them, or every App of every stack would be replaced.
 */
const GOLDEN_FOLDER = "3b7ee6055d3dcc190f62a602168c5b53050ec1fdb87a5bb281c3407195d89c27";
const GOLDEN_ZIP = "e274d7e276a0a7c76f3f195b933d4b361e620fed78fa470efe3e30df38e0a5b9";

const manifest = {
  name: "golden-tree",
  ram: 1024,
  entrypoint: "server.js",
  runtime: { language: "node", version: "20" },
};

const temp: string[] = [];
afterAll(() => Promise.all(temp.map((d) => rm(d, { recursive: true, force: true }))));

async function tempDir(): Promise<string> {
  const d = await mkdtemp(join(tmpdir(), "hosting-golden-"));
  temp.push(d);
  return d;
}

/**
 * Every rule the hash depends on: nested folders and sort order (upper case, dots, digits),
 * modes, an empty file and an empty folder, ignore rules (always and .hostingignore, with a
 * negation), symlinks to a file and to a folder inside the root, a name with a space and one
 * outside ASCII, and the source's own hosting.json equal to the inputs (the App writes its own).
 */
async function goldenTree(): Promise<string> {
  const dir = await tempDir();
  const files: Record<string, string> = {
    "server.js": "require('http').createServer((q, s) => s.end('golden')).listen(8080);\n",
    "Z.txt": "upper case sorts first\n",
    ".env.example": "PORT=8080\n",
    "a b.txt": "space\n",
    "café.md": "# non-ascii name\n",
    "empty.txt": "",
    "lib/util.js": "module.exports = 42;\n",
    "lib/deep/er/x.js": "x\n",
    "lib2/y.js": "y\n",
    "lib-a/z.js": "z\n",
    "bin/run.sh": "#!/bin/sh\nnode server.js\n",
    "logs/keep.log": "kept by a negation\n",
    "logs/drop.log": "dropped\n",
    "tmp/cache.bin": "dropped folder\n",
    "node_modules/dep/index.js": "never packed\n",
    "lib/node_modules/dep/index.js": "never packed either\n",
    ".git/HEAD": "ref: refs/heads/main\n",
    ".hostingignore": "*.log\n!logs/keep.log\ntmp/\n",
    "hosting.json": `${JSON.stringify(
      {
        entrypoint: "server.js",
        name: "golden-tree",
        ram: 1024,
        runtime: { language: "node", version: "20" },
      },
      null,
      2,
    )}\n`,
  };
  for (const [name, text] of Object.entries(files)) {
    await mkdir(dirname(join(dir, name)), { recursive: true });
    await writeFile(join(dir, name), text);
  }
  await mkdir(join(dir, "empty-folder"));
  await chmod(join(dir, "bin/run.sh"), 0o755);
  await chmod(join(dir, "server.js"), 0o640);
  await symlink("server.js", join(dir, "alias.js"));
  await symlink("lib", join(dir, "lib-link"));
  return dir;
}

/** A zip made by another tool: unix modes, a folder entry, a symlink entry, unsorted names. */
async function goldenZip(): Promise<string> {
  const file = join(await tempDir(), "app.zip");
  const zip = new yazl.ZipFile();
  const add = (name: string, text: string, mode = 0o100644, compress = true) =>
    zip.addBuffer(Buffer.from(text), name, { mode, compress, mtime: new Date(2020, 1, 2) });
  add("z.js", "z\n");
  add("index.js", "console.log('zip');\n", 0o100644, false);
  add("bin/run.sh", "#!/bin/sh\n", 0o100755);
  add("debug.log", "ignored\n");
  add(".hostingignore", "*.log\n");
  add("link", "index.js", 0o120777);
  zip.addEmptyDirectory("empty/");
  zip.end();
  await new Promise<void>((ok, fail) =>
    zip.outputStream.pipe(createWriteStream(file)).on("close", ok).on("error", fail),
  );
  return file;
}

async function hashOf(source: string): Promise<string> {
  const p = await packageSource(source, manifest);
  await rm(dirname(p.zipPath), { recursive: true, force: true });
  return p.sha256;
}

describe("golden content hashes (states deployed today hold them)", () => {
  test("a folder with every rule the hash depends on", async () => {
    expect(await hashOf(await goldenTree())).toBe(GOLDEN_FOLDER);
  });

  test("a .zip made by another tool", async () => {
    expect(await hashOf(await goldenZip())).toBe(GOLDEN_ZIP);
  });
});
