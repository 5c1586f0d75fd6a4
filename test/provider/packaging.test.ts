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
    const changed = await packageSource(dir, { name: "x", ram: 1024 });
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
      message: expect.stringMatching(/source\/passwd is a symlink that leaves the source root/),
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
