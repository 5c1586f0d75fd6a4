import { createHash } from "node:crypto";
import { readdirSync } from "node:fs";
import { chmod, mkdir, rm, symlink, utimes, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import yauzl from "yauzl";
import { packageSource as pack } from "../../src/provider/app/packaging";
import { appSource } from "../helpers/provider-env";
import { makeZip } from "../helpers/zip";

function entries(zipPath: string): Promise<Array<{ name: string; mode: number }>> {
  return new Promise((resolve, reject) => {
    yauzl.open(zipPath, { lazyEntries: false }, (err, zip) => {
      if (err || !zip) return reject(err);
      const out: Array<{ name: string; mode: number }> = [];
      zip.on("entry", (e: yauzl.Entry) =>
        out.push({ name: e.fileName, mode: (e.externalFileAttributes >>> 16) & 0o777 }),
      );
      zip.on("end", () => resolve(out));
    });
  });
}

const made: string[] = [];
const packageSource: typeof pack = async (source, manifest) => {
  const p = await pack(source, manifest);
  made.push(dirname(p.zipPath));
  return p;
};
afterAll(() => Promise.all(made.map((d) => rm(d, { recursive: true, force: true }))));

describe("source packaging", () => {
  test("deterministic: the same content gives the same hash whatever the timestamps", async () => {
    const dir = await appSource({ "b.txt": "b", "a.txt": "a" });
    const first = await packageSource(dir, { name: "x" });
    await utimes(join(dir, "a.txt"), new Date(2001, 1, 1), new Date(2001, 1, 1));
    const second = await packageSource(dir, { name: "x" });
    expect(second.sha256).toBe(first.sha256);
    expect((await entries(first.zipPath)).map((e) => e.name)).toEqual([
      "a.txt",
      "b.txt",
      "hosting.json",
      "index.js",
    ]);
    await writeFile(join(dir, "a.txt"), "A");
    const changed = await packageSource(dir, { name: "x" });
    expect(changed.sha256).not.toBe(first.sha256);
  });

  test("leaves out node_modules, .git and .hostingignore matches; keeps the executable bit", async () => {
    const dir = await appSource({ ".hostingignore": "*.log\nsecrets/\n", "run.sh": "#!/bin/sh\n" });
    for (const d of ["node_modules/x", ".git", "secrets", "src"])
      await mkdir(join(dir, d), { recursive: true });
    await writeFile(join(dir, "node_modules/x/index.js"), "");
    await writeFile(join(dir, ".git/HEAD"), "");
    await writeFile(join(dir, "secrets/key.pem"), "");
    await writeFile(join(dir, "debug.log"), "");
    await writeFile(join(dir, "src/app.js"), "");
    await chmod(join(dir, "run.sh"), 0o755);
    const p = await packageSource(dir, { name: "x" });
    const list = await entries(p.zipPath);
    expect(list.map((e) => e.name)).toEqual([
      ".hostingignore",
      "hosting.json",
      "index.js",
      "run.sh",
      "src/app.js",
    ]);
    expect(list.find((e) => e.name === "run.sh")!.mode).toBe(0o755);
    expect(list.find((e) => e.name === "index.js")!.mode).toBe(0o644);
  });

  test("a symlink that leaves the source root is refused, naming it", async () => {
    const dir = await appSource();
    await symlink("/etc/passwd", join(dir, "passwd"));
    await expect(packageSource(dir, { name: "x" })).rejects.toMatchObject({
      property: "source",
      message: expect.stringMatching(
        /source\/passwd is a symlink to "\/etc\/passwd", outside the source root/,
      ),
    });
  });

  test("a symlink inside the root is packed as the file it points to", async () => {
    const dir = await appSource({ "real.txt": "r" });
    await symlink(join(dir, "real.txt"), join(dir, "alias.txt"));
    const list = await entries((await packageSource(dir, { name: "x" })).zipPath);
    expect(list.map((e) => e.name)).toContain("alias.txt");
  });

  test("a .zip source is re-packed the same way", async () => {
    const zip = await makeZip({ "z.js": "z", "a.js": "a" });
    const p = await packageSource(zip, { name: "x" });
    expect((await entries(p.zipPath)).map((e) => e.name)).toEqual(["a.js", "hosting.json", "z.js"]);
    expect((await packageSource(zip, { name: "x" })).sha256).toBe(p.sha256);
  });

  test("neither a folder nor a .zip", async () => {
    const dir = await appSource();
    await expect(packageSource(join(dir, "index.js"), { name: "x" })).rejects.toThrow(
      /must be a directory or a .zip/,
    );
  });
});

describe("the source hash is over content, not compressed bytes", () => {
  /** A fixed fixture: these files, these modes, this manifest. */
  async function fixture(): Promise<string> {
    const dir = await appSource({ "run.sh": "#!/bin/sh\nnode index.js\n" });
    await writeFile(join(dir, "index.js"), "console.log('golden');\n");
    await mkdir(join(dir, "lib"));
    await writeFile(join(dir, "lib/util.js"), "module.exports = 42;\n");
    await chmod(join(dir, "run.sh"), 0o755);
    await chmod(join(dir, "index.js"), 0o644);
    return dir;
  }
  const manifest = { name: "golden", ram: 512 };

  test("golden: a fixed fixture always hashes to the same value", async () => {
    const p = await packageSource(await fixture(), manifest);
    // Pinned: a change of Node, zlib, CPU or machine must not move this value.
    expect(p.sha256).toBe(GOLDEN);
    expect(p.sha256V1).toBe(GOLDEN_V1);
    // And it is exactly the documented listing, recomputed here by hand: v2 holds the source's
    // files with length-prefixed paths, v1 the manifest too with bare paths.
    const sha = (t: string) => createHash("sha256").update(t).digest("hex");
    const files = [
      ["644", sha("console.log('golden');\n"), "index.js"],
      ["644", sha("module.exports = 42;\n"), "lib/util.js"],
      ["755", sha("#!/bin/sh\nnode index.js\n"), "run.sh"],
    ];
    const v2 = files.map(([m, h, n]) => `${m} ${h} ${n.length}:${n}\n`).join("");
    expect(p.sha256).toBe(sha(`pulumi-hosting source v2\n${v2}`));
    const manifestFile = ["644", sha('{\n  "name": "golden",\n  "ram": 512\n}\n'), "hosting.json"];
    const v1 = [manifestFile, ...files].map(([m, h, n]) => `${m} ${h} ${n}\n`).join("");
    expect(p.sha256V1).toBe(sha(`pulumi-hosting source v1\n${v1}`));
  });

  test("the same content as a folder or as a zip (any compression) gives the same hash", async () => {
    const zip = await makeZip({
      "index.js": "console.log('golden');\n",
      "lib/util.js": "module.exports = 42;\n",
      "run.sh": "#!/bin/sh\nnode index.js\n",
    });
    const fromZip = await packageSource(zip, manifest);
    // makeZip stores no unix modes: the zip's run.sh is 644, so the folder's differs by its mode.
    expect(fromZip.sha256).not.toBe(GOLDEN);
    const dir = await fixture();
    await chmod(join(dir, "run.sh"), 0o644);
    expect((await packageSource(dir, manifest)).sha256).toBe(fromZip.sha256);
  });

  test("a .zip source gets the folder's ignore rules", async () => {
    const zip = await makeZip({
      ".hostingignore": "*.log\nsecrets/\n",
      "index.js": "x",
      "debug.log": "noise",
      "secrets/key.pem": "k",
      "node_modules/dep/index.js": "d",
      ".git/HEAD": "ref",
      "src/app.js": "a",
    });
    const list = await entries((await packageSource(zip, { name: "x" })).zipPath);
    expect(list.map((e) => e.name)).toEqual([
      ".hostingignore",
      "hosting.json",
      "index.js",
      "src/app.js",
    ]);
  });

  test("packing a zip many times leaves no file handle open", async () => {
    const zip = await makeZip({ "index.js": "x", "b.js": "y" });
    const open = () => readdirSync("/proc/self/fd").length;
    await packageSource(zip, { name: "x" }); // warm up lazily opened handles
    const before = open();
    for (let i = 0; i < 40; i++) await packageSource(zip, { name: "x" });
    expect(open() - before).toBeLessThan(5);
  });
});

const GOLDEN = "149715c73ec55045a56ac881c913b11140974bf30c8240cb7d680cbd6d888224";
/** The same content in format v1 (states of 0.1.0): the manifest included, bare paths. */
const GOLDEN_V1 = "4fdf2d4cd81725576148311f757fce340b47c19044c768a79434ab85591b86d9";
