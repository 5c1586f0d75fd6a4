import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { ProviderHost } from "../helpers/provider-host";
import { ROOT } from "../helpers/pulumi-parts";

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { writeArchives } = require("../../scripts/plugin-archives") as {
  writeArchives(outDir: string): string[];
};

/*
 * The release archives (`npm run plugin-archives`): the names `pulumi plugin install` asks a
 * release for, for every OS and CPU Pulumi ships for; what each holds, read back by the system's
 * tar; the Windows launcher; the same bytes on every run. The plugin of an archive, unpacked into
 * an empty folder, starts with only node on PATH and answers as the engine asks.
 */

const { version } = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
  version: string;
};
const PLUGIN = "pulumi-resource-hosting";

let out: string;
let archives: string[];
beforeAll(() => {
  out = mkdtempSync(join(tmpdir(), "hosting-archives-"));
  archives = writeArchives(out);
});
afterAll(() => rmSync(out, { recursive: true, force: true }));

/** `tar -tvzf`: each entry's mode and name. */
const listing = (archive: string) =>
  execFileSync("tar", ["-tvzf", archive], { encoding: "utf8" })
    .trim()
    .split("\n")
    .map((l) => {
      const f = l.split(/\s+/);
      return `${f[0]} ${f[f.length - 1]}`;
    });

test("one archive per OS and CPU, named as `pulumi plugin install` asks a release for", () => {
  expect(readdirSync(out).sort()).toEqual(
    ["darwin", "linux", "windows"]
      .flatMap((os) =>
        ["amd64", "arm64"].map((arch) => `${PLUGIN}-v${version}-${os}-${arch}.tar.gz`),
      )
      .sort(),
  );
  expect(archives.map((a) => basename(a)).sort()).toEqual(readdirSync(out).sort());
});

test("each holds the one-file plugin (executable), its schema and LICENSE; Windows' also the launcher", () => {
  for (const archive of archives) {
    const windows = archive.includes("-windows-");
    expect({ archive: basename(archive), entries: listing(archive) }).toEqual({
      archive: basename(archive),
      entries: [
        `-rwxr-xr-x ${PLUGIN}`,
        ...(windows ? [`-rwxr-xr-x ${PLUGIN}.cmd`] : []),
        "-rw-r--r-- schema.json",
        "-rw-r--r-- LICENSE",
      ],
    });
    const dir = mkdtempSync(join(out, "x-"));
    execFileSync("tar", ["-xzf", archive, "-C", dir]);
    for (const f of [PLUGIN, "schema.json"]) {
      expect(readFileSync(join(dir, f)).equals(readFileSync(join(ROOT, "plugin", f)))).toBe(true);
    }
    expect(readFileSync(join(dir, "LICENSE"), "utf8")).toContain("Apache License");
    rmSync(dir, { recursive: true });
  }
});

test("the Windows launcher runs node on the plugin beside it, with every argument", () => {
  const cmd = readFileSync(join(ROOT, "plugin", `${PLUGIN}.cmd`), "utf8");
  // Pulumi on Windows runs <name>.exe or else <name>.cmd from the plugin's folder.
  expect(cmd.split(/\r?\n/).filter((l) => l && !l.startsWith("rem "))).toEqual([
    "@echo off",
    `node "%~dp0${PLUGIN}" %*`,
  ]);
});

test("the same files give the same bytes", () => {
  const again = writeArchives(mkdtempSync(join(out, "again-")));
  for (const a of again) {
    expect(readFileSync(a).equals(readFileSync(join(out, basename(a))))).toBe(true);
  }
  rmSync(dirname(again[0]), { recursive: true });
});

test("an archive's plugin, unpacked into an empty folder, runs with only node on PATH: the schema names where releases are", async () => {
  const dir = mkdtempSync(join(tmpdir(), "hosting-unpacked-"));
  try {
    const linux = archives.find((a) => a.endsWith("-linux-amd64.tar.gz"))!;
    execFileSync("tar", ["-xzf", linux, "-C", dir]);
    const host = await ProviderHost.startNative(
      { PATH: dirname(process.execPath), NODE_PATH: "" },
      dir,
      join(dir, PLUGIN),
    );
    try {
      const schema = await host.getSchema();
      expect(schema).toMatchObject({
        name: "hosting",
        version,
        pluginDownloadURL: "github://api.github.com/pulumi-hosting/pulumi-hosting",
      });
      expect(host.stderr()).toBe("");
    } finally {
      await host.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
