import { createWriteStream } from "node:fs";
import { chmod, mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { createHash } from "node:crypto";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import yazl from "yazl";
import { execFileSync } from "node:child_process";
import { appendFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import zlib from "node:zlib";
import { legacyArchiveHash, packageSource } from "../../src/provider/app/packaging";
import { listSource } from "../../src/provider/app/source-files";
import { contentHashV1, hashSource, hashSourceFiles } from "../../src/provider/app/source-hash";
import { providerHandlers } from "../../src/provider/handlers";
import { providerText } from "../../src/provider/provider-text";

/*
 * Golden content hashes in format v1, computed by the build that packed the whole source to
 * learn them (before check hashed without packing). Stacks deployed with 0.1.0 hold these values:
 * check must keep them for the same content, or every App of every such stack would be replaced.
 */
const GOLDEN_FOLDER = "3b7ee6055d3dcc190f62a602168c5b53050ec1fdb87a5bb281c3407195d89c27";
const GOLDEN_ZIP = "e274d7e276a0a7c76f3f195b933d4b361e620fed78fa470efe3e30df38e0a5b9";
/** The same trees in format v2 (length-prefixed paths, the App's manifest left out). */
const GOLDEN_FOLDER_V2 = "781e15953ca0778be27386e6802108dbd20c3005465acc54941e20246cde2817";
const GOLDEN_ZIP_V2 = "580949b5291d96edd4c76aa47b686aac728f419ce12040fe36b930c272823df1";

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
 * negation), a symlink to a file inside the root, a name with a space and one outside ASCII,
 * and the source's own hosting.json equal to the inputs (the App writes its own). (A link to a
 * folder, which 0.1.0 left out of the upload, is in "folders reached through links" below.)
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

/**
 * The hash create computes while packing; and the archive it uploads holds every byte of every
 * file: read back as a .zip source, it hashes to the same value.
 */
async function hashOf(source: string): Promise<string> {
  const p = await packageSource(source, manifest);
  try {
    expect(await hashSource(p.zipPath, manifest)).toBe(p.sha256);
    return p.sha256;
  } finally {
    await rm(dirname(p.zipPath), { recursive: true, force: true });
  }
}

describe("golden content hashes (states deployed today hold them)", () => {
  test("a folder with every rule the hash depends on: hashed by check and by create", async () => {
    const tree = await goldenTree();
    expect(await hashSource(tree, manifest)).toBe(GOLDEN_FOLDER_V2);
    expect(await hashOf(tree)).toBe(GOLDEN_FOLDER_V2);
    expect(contentHashV1(await hashSourceFiles(tree, manifest))).toBe(GOLDEN_FOLDER);
  });

  test("a .zip made by another tool: hashed by check and by create", async () => {
    const zip = await goldenZip();
    expect(await hashSource(zip, manifest)).toBe(GOLDEN_ZIP_V2);
    expect(await hashOf(zip)).toBe(GOLDEN_ZIP_V2);
    expect(contentHashV1(await hashSourceFiles(zip, manifest))).toBe(GOLDEN_ZIP);
  });
});

/** Counts every deflate the packer can start: buffers (deflateRaw) and streams (new DeflateRaw). */
function countDeflates() {
  const spies = [jest.spyOn(zlib, "deflateRaw"), jest.spyOn(zlib, "DeflateRaw")];
  return {
    count: () => spies.reduce((n, s) => n + s.mock.calls.length, 0),
    restore: () => spies.forEach((s) => s.mockRestore()),
  };
}

describe("check hashes, never packs", () => {
  // Configured as the host does first, so check reports no connection problem: an API URL and a
  // JWT-shaped token (check sends no request, so nothing needs to answer there).
  beforeAll(() =>
    providerHandlers("App").configure({
      config: new Map([
        ["hosting:apiUrl", "http://127.0.0.1:9"],
        ["hosting:token", "aGVhZGVy.cGF5bG9hZA.c2lnbmF0dXJl"],
      ]),
    } as unknown as Parameters<ReturnType<typeof providerHandlers>["configure"]>[0]),
  );
  const checkApp = (olds: Record<string, unknown>, source: string, entrypoint = "server.js") =>
    providerHandlers("App").check(olds, {
      __provider: providerText("App"),
      source,
      name: "golden-tree",
      ram: 1024,
      entrypoint,
      runtime: { language: "node", version: "20" },
    });

  test("check of a folder and of a zip runs no deflate; create's packing does", async () => {
    const tree = await goldenTree();
    const zip = await goldenZip();
    const deflates = countDeflates();
    try {
      const fresh = await checkApp({}, tree);
      expect(fresh.failures).toEqual([]);
      expect(fresh.inputs.sourceHash).toBe(GOLDEN_FOLDER_V2);
      // A state that holds today's hash of this source: nothing to migrate.
      const again = await checkApp({ sourceHash: GOLDEN_FOLDER_V2 }, tree);
      expect(again.inputs.sourceHash).toBe(GOLDEN_FOLDER_V2);
      // A state of 0.1.0 holds the v1 hash of the same content: kept, so no change shows.
      const v1 = await checkApp({ sourceHash: GOLDEN_FOLDER }, tree);
      expect(v1.inputs.sourceHash).toBe(GOLDEN_FOLDER);
      // The golden zip holds no server.js, the entrypoint its v1 hash was made with: check
      // refuses that now. (The v2 hash leaves the manifest out: any entrypoint it holds will do.)
      expect((await checkApp({ sourceHash: GOLDEN_ZIP }, zip)).failures).toEqual([
        { property: "entrypoint", reason: expect.stringMatching(/^entrypoint "server.js" is not/) },
      ]);
      expect((await checkApp({}, zip, "index.js")).inputs.sourceHash).toBe(GOLDEN_ZIP_V2);
      expect(deflates.count()).toBe(0);
      // The spies do see the packer's deflates: packing the same tree is counted.
      await hashOf(tree);
      expect(deflates.count()).toBeGreaterThan(0);
      // Once the content changes, the new format: a v1 hash never matches a different tree.
      await writeFile(join(tree, "Z.txt"), "changed\n");
      const changed = await checkApp({ sourceHash: GOLDEN_FOLDER }, tree);
      expect(changed.inputs.sourceHash).toBe(await hashSource(tree, manifest));
      expect(changed.inputs.sourceHash).not.toBe(GOLDEN_FOLDER_V2);
    } finally {
      deflates.restore();
    }
  });

  test("a state holding the zip-bytes hash of this source pays one pack, then never again", async () => {
    const tree = await goldenTree();
    const old = await legacyArchiveHash(tree, manifest);
    const deflates = countDeflates();
    try {
      const first = await checkApp({ sourceHash: old }, tree);
      expect(first.inputs.sourceHash).toBe(GOLDEN_FOLDER_V2);
      const paid = deflates.count();
      expect(paid).toBeGreaterThan(0);
      await checkApp({ sourceHash: old }, tree);
      expect(deflates.count()).toBe(paid);
    } finally {
      deflates.restore();
    }
  });
});

describe("the zip-bytes hash of the builds before the content hash", () => {
  test("is the hash of the archive those builds wrote: whole buffers, fixed times, sorted", async () => {
    const dir = await tempDir();
    await writeFile(join(dir, "index.js"), "console.log('old');\n");
    await mkdir(join(dir, "bin"));
    await writeFile(join(dir, "bin/run.sh"), "#!/bin/sh\n");
    await chmod(join(dir, "bin/run.sh"), 0o755);
    // What those builds did, written out: readFile + addBuffer in sorted order.
    const zip = new yazl.ZipFile();
    const opts = (mode: number) => ({
      mtime: new Date(1980, 0, 1, 0, 0, 0),
      mode: 0o100000 | mode,
      forceDosTimestamp: true,
    });
    zip.addBuffer(await readFile(join(dir, "bin/run.sh")), "bin/run.sh", opts(0o755));
    zip.addBuffer(Buffer.from('{\n  "name": "old"\n}\n'), "hosting.json", opts(0o644));
    zip.addBuffer(await readFile(join(dir, "index.js")), "index.js", opts(0o644));
    zip.end();
    const chunks: Buffer[] = [];
    for await (const c of zip.outputStream) chunks.push(c as Buffer);
    const expected = createHash("sha256").update(Buffer.concat(chunks)).digest("hex");
    expect(await legacyArchiveHash(dir, { name: "old" })).toBe(expected);
  });
});

describe("hostile files in a source", () => {
  test("a FIFO is left out and never waited on", async () => {
    const tree = await goldenTree();
    execFileSync("mkfifo", [join(tree, "pipe")]);
    expect(await hashSource(tree, manifest)).toBe(GOLDEN_FOLDER_V2);
    expect(await hashOf(tree)).toBe(GOLDEN_FOLDER_V2);
  });

  test("a symlink to a file outside the root is refused by check, naming it", async () => {
    const tree = await goldenTree();
    await symlink("/etc/hostname", join(tree, "lib/outside"));
    await expect(hashSource(tree, manifest)).rejects.toMatchObject({
      property: "source",
      message: expect.stringMatching(
        /^source\/lib\/outside is a symlink to "\/etc\/hostname", outside the source root; copy what it points to into the source; rename or remove it, or list it in \.hostingignore$/,
      ),
    });
  });

  test("a dangling symlink is refused, naming it", async () => {
    const tree = await goldenTree();
    await symlink("gone.js", join(tree, "dangling.js"));
    await expect(hashSource(tree, manifest)).rejects.toMatchObject({
      property: "source",
      message: expect.stringMatching(/source\/dangling.js/),
    });
  });

  test("a file written to after the walk listed it is refused, naming it, not hashed", async () => {
    const tree = await goldenTree();
    const grow = join(tree, "lib/util.js");
    const listing = await listSource(tree, manifest, (f) => {
      if (f.name === "lib/util.js") appendFileSync(grow, "// appended while the source is read\n");
    });
    const file = listing.files.find((f) => f.name === "lib/util.js")!;
    await expect(file.digest!()).rejects.toMatchObject({
      property: "source",
      message: expect.stringMatching(/source\/lib\/util.js changed while the source was read/),
    });
  });

  test("a source hosting.json that differs from the inputs is refused by check", async () => {
    const tree = await goldenTree();
    await writeFile(join(tree, "hosting.json"), '{"name":"other"}');
    await expect(hashSource(tree, manifest)).rejects.toMatchObject({
      property: "source",
      message: expect.stringMatching(/already has a hosting.json that differs/),
    });
  });
});
