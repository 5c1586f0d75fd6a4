import { execFileSync } from "node:child_process";
import { chmod, mkdir, mkdtemp, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { makeZip } from "./zip";

/*
 * Source trees the walk must upload faithfully, each with the names it must list (the App's
 * hosting.json aside). Shared by the walk's tests (listing, hash) and the upload test, which
 * reads back the archive the emulator received for every one of them.
 */

export interface SourceTree {
  name: string;
  make(): Promise<string>;
  /** The archive's names, sorted, without hosting.json. */
  names: string[];
}

/** A temp folder holding these files (name → text; a trailing `/` makes an empty folder). */
export async function tree(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "hosting-tree-"));
  for (const [name, text] of Object.entries(files)) {
    if (name.endsWith("/")) {
      await mkdir(join(dir, name), { recursive: true });
      continue;
    }
    await mkdir(dirname(join(dir, name)), { recursive: true });
    await writeFile(join(dir, name), text);
  }
  return dir;
}

export const sourceTrees: SourceTree[] = [
  {
    name: "nested folders, an executable, an empty file and an empty folder",
    make: async () => {
      const dir = await tree({
        "index.js": "console.log(1);\n",
        "lib/a/b/c.js": "c\n",
        "bin/run.sh": "#!/bin/sh\n",
        "empty.txt": "",
        "nothing/": "",
      });
      await chmod(join(dir, "bin/run.sh"), 0o755);
      return dir;
    },
    names: ["bin/run.sh", "empty.txt", "index.js", "lib/a/b/c.js"],
  },
  {
    name: "a link to a folder inside the root: its files under both names",
    make: async () => {
      const dir = await tree({
        "index.js": "i\n",
        "assets/logo.svg": "<svg/>\n",
        "assets/x/y": "y",
      });
      await symlink("assets", join(dir, "a-alias"));
      return dir;
    },
    names: ["a-alias/logo.svg", "a-alias/x/y", "assets/logo.svg", "assets/x/y", "index.js"],
  },
  {
    name: "a link to a file, and a link to a folder from a sibling folder",
    make: async () => {
      const dir = await tree({ "index.js": "i\n", "lib/util.js": "u\n", "web/page.html": "p\n" });
      await symlink("index.js", join(dir, "main.js"));
      await symlink("../lib", join(dir, "web/lib"));
      return dir;
    },
    names: ["index.js", "lib/util.js", "main.js", "web/lib/util.js", "web/page.html"],
  },
  {
    name: "names with spaces, newlines, quotes and non-ASCII letters",
    make: () =>
      tree({
        "index.js": "i\n",
        "a b.txt": "space\n",
        "line\nbreak.txt": "newline\n",
        'q"uote.txt': "quote\n",
        "café/ñ.md": "utf-8\n",
      }),
    names: ["a b.txt", "café/ñ.md", "index.js", "line\nbreak.txt", 'q"uote.txt'],
  },
  {
    name: "ignore rules: .hostingignore (case-sensitive), node_modules, .git folder and file",
    make: async () => {
      const dir = await tree({
        "index.js": "i\n",
        ".hostingignore": "*.LOG\nbuild/\nsecret-link\n",
        "debug.log": "kept: the pattern is upper case\n",
        "DEBUG.LOG": "left out\n",
        "build/out.js": "left out\n",
        "node_modules/dep/index.js": "left out\n",
        ".git/HEAD": "left out\n",
        "sub/.git": "gitdir: /somewhere/else\n",
        "sub/file.js": "kept\n",
      });
      await symlink("/etc", join(dir, "secret-link"));
      return dir;
    },
    names: [".hostingignore", "debug.log", "index.js", "sub/file.js"],
  },
  {
    name: "a FIFO and a root node_modules that links out of the root are left out",
    make: async () => {
      const dir = await tree({ "index.js": "i\n" });
      execFileSync("mkfifo", [join(dir, "pipe")]);
      await symlink(tmpdir(), join(dir, "node_modules"));
      return dir;
    },
    names: ["index.js"],
  },
  {
    name: "a .zip source",
    make: () =>
      makeZip({ "z.js": "z\n", "a/b.js": "b\n", "debug.log": "d", ".hostingignore": "*.log\n" }),
    names: [".hostingignore", "a/b.js", "z.js"],
  },
];
