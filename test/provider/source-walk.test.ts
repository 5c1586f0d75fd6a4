import { execFileSync } from "node:child_process";
import { mkdir, readFile, rm, symlink, truncate, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import { listSource } from "../../src/provider/app/source-files";
import { SOURCE_LIMITS } from "../../src/provider/app/source-limits";
import { shownName } from "../../src/provider/app/source-names";
import { contentHash, contentHashV1, hashSource } from "../../src/provider/app/source-hash";
import { sourceTrees, tree } from "../helpers/source-trees";
import { makeZip } from "../helpers/zip";

/*
 * The walk of a source, in this process: which names are listed (the names hashed and zipped),
 * which are refused and how the refusal reads. What create uploads is held to the same listing
 * in uploaded-archive.test.ts.
 */

const manifest = { name: "walk" };
const names = async (source: string) => {
  const listing = await listSource(source, manifest);
  listing.close();
  return listing.files.map((f) => f.name).filter((n) => n !== "hosting.json");
};
const refusal = (source: string) =>
  hashSource(source, manifest).then(
    () => undefined,
    (err: { property?: string; message: string }) => ({
      property: err.property,
      message: err.message,
    }),
  );
const fix = "; rename or remove it, or list it in .hostingignore";

describe.each(sourceTrees)("$name", ({ make, names: expected }) => {
  test("lists exactly these names, hosting.json aside", async () => {
    expect(await names(await make())).toEqual(expected);
  });
});

describe("names a zip cannot carry faithfully are refused, naming the file and the fix", () => {
  test.each([
    ["a\\b.js", "has a backslash in its name, which a zip archive reads as a folder separator"],
    ["..\\evil.js", "has a backslash in its name, which a zip archive reads as a folder separator"],
    ["\\abs.js", "has a backslash in its name, which a zip archive reads as a folder separator"],
    [
      "C:evil.js",
      "starts with a drive letter (like C:), which a zip archive reads as an absolute path",
    ],
  ])("%j", async (name, why) => {
    const dir = await tree({ "index.js": "i", [name]: "x" });
    expect(await refusal(dir)).toEqual({
      property: "source",
      message: `source/${name} ${why}${fix}`,
    });
  });

  test("lib\\util.js beside lib/util.js (one archive name for two files) is refused", async () => {
    const dir = await tree({ "lib/util.js": "a", "lib\\util.js": "b" });
    expect((await refusal(dir))?.message).toBe(
      "source/lib\\util.js has a backslash in its name, which a zip archive reads as a folder " +
        `separator${fix}`,
    );
  });

  test("a drive-letter name below the root is a plain name", async () => {
    expect(await names(await tree({ "sub/C:x.js": "x" }))).toEqual(["sub/C:x.js"]);
  });

  test("a name that is not UTF-8 is shown escaped and refused; beside its look-alike too", async () => {
    const dir = await tree({ "x\ufffd.js": "look-alike" });
    const bad = Buffer.concat([Buffer.from(`${dir}/x`), Buffer.from([0xff]), Buffer.from(".js")]);
    await writeFile(bad, "bytes");
    expect(await refusal(dir)).toEqual({
      property: "source",
      message: `source/x\\xff.js has a name that is not UTF-8 (shown with \\x escapes)${fix}`,
    });
  });

  test("a name that is not UTF-8, listed in .hostingignore, is left out", async () => {
    const dir = await tree({ "index.js": "i", ".hostingignore": "x*.js\n" });
    await mkdir(Buffer.concat([Buffer.from(`${dir}/d`), Buffer.from([0xc3, 0x28])]));
    await writeFile(
      Buffer.concat([Buffer.from(`${dir}/x`), Buffer.from([0xff]), Buffer.from(".js")]),
      "b",
    );
    await writeFile(join(dir, ".hostingignore"), "x*.js\nd*/\n");
    expect(await names(dir)).toEqual([".hostingignore", "index.js"]);
  });

  test("a listing with two entries of one name (a .zip may hold them) is refused", async () => {
    const zip = await makeZip({ "a.js": "1" });
    // makeZip takes a record: write a second entry of the same name by hand.
    const yazl = (await import("yazl")).default;
    const z = new yazl.ZipFile();
    z.addBuffer(Buffer.from("1"), "a.js");
    z.addBuffer(Buffer.from("2"), "a.js");
    z.end();
    const chunks: Buffer[] = [];
    for await (const c of z.outputStream) chunks.push(c as Buffer);
    await writeFile(zip, Buffer.concat(chunks));
    expect((await refusal(zip))?.message).toBe(
      "source holds two files named a.js; an archive holds one",
    );
  });
});

describe("links: a loop, a dangling link and a link out of the root are told apart", () => {
  test("a link to a folder that holds it", async () => {
    const dir = await tree({ "index.js": "i", "a/b/c.js": "c" });
    await symlink("..", join(dir, "a/b/up"));
    expect((await refusal(dir))?.message).toBe(
      `source/a/b/up is a symlink to the folder source/a that holds it (a loop)${fix}`,
    );
  });

  test("a link to the root itself", async () => {
    const dir = await tree({ "index.js": "i" });
    await symlink(".", join(dir, "self"));
    expect((await refusal(dir))?.message).toBe(
      `source/self is a symlink to the folder source that holds it (a loop)${fix}`,
    );
  });

  test("links that lead to each other", async () => {
    const dir = await tree({ "index.js": "i" });
    await symlink("b", join(dir, "a"));
    await symlink("a", join(dir, "b"));
    expect((await refusal(dir))?.message).toBe(
      `source/a is a symlink loop (its links lead back to it)${fix}`,
    );
  });

  test("a dangling link", async () => {
    const dir = await tree({ "index.js": "i" });
    await symlink("gone.js", join(dir, "dangling.js"));
    expect((await refusal(dir))?.message).toBe(
      `source/dangling.js is a dangling symlink (its target "gone.js" is missing)${fix}`,
    );
  });

  test("a link out of the root; the same link listed in .hostingignore is left out", async () => {
    const dir = await tree({ "index.js": "i" });
    await symlink("/etc", join(dir, "etc"));
    expect((await refusal(dir))?.message).toBe(
      `source/etc is a symlink to "/etc", outside the source root; copy what it points to into ` +
        `the source${fix}`,
    );
    await writeFile(join(dir, ".hostingignore"), "etc\n");
    expect(await names(dir)).toEqual([".hostingignore", "index.js"]);
    await writeFile(join(dir, ".hostingignore"), "etc/\n");
    expect(await names(dir)).toEqual([".hostingignore", "index.js"]);
  });
});

describe("the ignore file is read like any file: type first, bounded", () => {
  test("a FIFO named .hostingignore is refused without waiting for a writer", async () => {
    const dir = await tree({ "index.js": "i" });
    execFileSync("mkfifo", [join(dir, ".hostingignore")]);
    expect((await refusal(dir))?.message).toBe(
      "source/.hostingignore is not a regular file; make it a text file of ignore patterns",
    );
  });

  test("a .hostingignore linked to /dev/zero is refused as a link out of the root", async () => {
    const dir = await tree({ "index.js": "i" });
    await symlink("/dev/zero", join(dir, ".hostingignore"));
    expect((await refusal(dir))?.message).toMatch(
      /^source\/.hostingignore is a symlink to "\/dev\/zero"/,
    );
  });

  test("a .hostingignore linked to a file inside the root is read", async () => {
    const dir = await tree({ "index.js": "i", "rules.txt": "*.log\n", "x.log": "x" });
    await symlink("rules.txt", join(dir, ".hostingignore"));
    expect(await names(dir)).toEqual([".hostingignore", "index.js", "rules.txt"]);
  });

  test("a .hostingignore past its limit is refused before it is read", async () => {
    const dir = await tree({ "index.js": "i" });
    await writeFile(join(dir, ".hostingignore"), "");
    await truncate(join(dir, ".hostingignore"), SOURCE_LIMITS.ignoreFileBytes + 1);
    expect((await refusal(dir))?.message).toBe(
      `source/.hostingignore is larger than ${SOURCE_LIMITS.ignoreFileBytes} bytes; list ` +
        "folders rather than every file",
    );
    // Comments up to the limit (patterns that many would make matching slow, not wrong).
    const comment = `# ${"x".repeat(1021)}\n`;
    await writeFile(
      join(dir, ".hostingignore"),
      comment.repeat(SOURCE_LIMITS.ignoreFileBytes / 1024),
    );
    expect(await names(dir)).toEqual([".hostingignore", "index.js"]);
  });
});

test("a pattern too large to match is refused naming .hostingignore", async () => {
  const dir = await tree({ "index.js": "i", ".hostingignore": "a".repeat(1 << 19) + "*\n" });
  expect((await refusal(dir))?.message).toMatch(
    /^\.hostingignore has a pattern that cannot be matched \(.*\); shorten or remove it$/,
  );
});

describe("size limits, from what the walk sees, before any file is read", () => {
  // Sparse files: their size is what counts, and no byte of them is on disk or read.
  test("one file past the limit of a file; at the limit it passes the walk", async () => {
    const dir = await tree({ "index.js": "i", "big.bin": "" });
    await truncate(join(dir, "big.bin"), SOURCE_LIMITS.fileBytes + 1);
    expect(await refusal(dir)).toEqual({
      property: "source",
      message:
        "source/big.bin is 257 MiB, more than the 256 MiB a file of a source may hold; list it " +
        "in .hostingignore and fetch it at run time",
    });
    await truncate(join(dir, "big.bin"), SOURCE_LIMITS.fileBytes);
    expect(await names(dir)).toEqual(["big.bin", "index.js"]);
  });

  test("a tree past the limit of the whole source, naming where it passed", async () => {
    const files: Record<string, string> = { "index.js": "i" };
    for (let i = 0; i < 5; i++) files[`part${i}.bin`] = "";
    const dir = await tree(files);
    for (let i = 0; i < 5; i++) await truncate(join(dir, `part${i}.bin`), 220 * 1024 * 1024);
    expect((await refusal(dir))?.message).toBe(
      "source holds more than 1024 MiB of files (passed at source/part4.bin); list large files " +
        "or folders in .hostingignore",
    );
  });

  test("a .zip's entries are held to the same limits, from the sizes its directory states", async () => {
    const zip = await makeZip({ "index.js": "i", "big.bin": "b" });
    // The central directory's uncompressed size of big.bin (offset 24 of its record), raised.
    const bytes = await readFile(zip);
    const record = bytes.lastIndexOf("big.bin") - 46; // the name follows a 46-byte header
    bytes.writeUInt32LE(SOURCE_LIMITS.fileBytes + 1, record + 24);
    await writeFile(zip, bytes);
    expect((await refusal(zip))?.message).toMatch(/^source\/big.bin is 257 MiB, more than/);
  });
});

describe("what a source path means", () => {
  test("an empty folder, or one whose every file is left out, is refused", async () => {
    const dir = await tree({ "nothing/": "" });
    expect(await refusal(dir)).toEqual({
      property: "source",
      message:
        `source ${JSON.stringify(dir)} has no file to upload (after node_modules, .git and ` +
        ".hostingignore); point source at the app's folder",
    });
    await writeFile(join(dir, "x.log"), "x");
    await writeFile(join(dir, ".hostingignore"), "*.log\n.hostingignore\n");
    expect((await refusal(dir))?.message).toMatch(/has no file to upload/);
  });

  test("`~` is not expanded, and the message says so", async () => {
    expect((await refusal("~/no-such-app-folder"))?.message).toBe(
      'source "~/no-such-app-folder" does not exist: `~` is not expanded (no shell reads this ' +
        'path); write the full path, e.g. path.join(os.homedir(), "app") ' +
        `(${JSON.stringify(join(homedir(), "no-such-app-folder"))})`,
    );
  });

  test("a relative path is taken from the working directory, and the message says which", async () => {
    expect((await refusal("no-such-app-folder"))?.message).toBe(
      `source "no-such-app-folder" does not exist (a relative path is taken from the working ` +
        `directory ${JSON.stringify(process.cwd())}, giving ` +
        `${JSON.stringify(join(process.cwd(), "no-such-app-folder"))}); use ` +
        "path.join(__dirname, ...) in the program",
    );
  });

  test("an absolute path that does not exist", async () => {
    expect((await refusal("/no/such/app"))?.message).toBe('source "/no/such/app" does not exist');
  });

  test("a file that is not a .zip, and a folder named like one", async () => {
    const dir = await tree({ "index.js": "i", "folder.zip/index.js": "i" });
    expect((await refusal(join(dir, "index.js")))?.message).toMatch(
      /must be a directory or a .zip file$/,
    );
    expect(await names(join(dir, "folder.zip"))).toEqual(["index.js"]);
  });
});

describe("the hash format", () => {
  const sha = "0".repeat(64);
  test("a path holding a newline and a record cannot pass for two files", () => {
    const two = [
      { name: "x", mode: 0o644, sha256: sha },
      { name: "y", mode: 0o644, sha256: sha },
    ];
    const one = [{ name: `x\n644 ${sha} y`, mode: 0o644, sha256: sha }];
    expect(contentHash(one)).not.toBe(contentHash(two));
  });

  test("mode, bytes and name each count; order of the list does not", () => {
    const base = [
      { name: "a", mode: 0o644, sha256: sha },
      { name: "b", mode: 0o755, sha256: "1".repeat(64) },
    ];
    const h = contentHash(base);
    expect(contentHash([...base].reverse())).toBe(h);
    expect(contentHash([{ ...base[0], mode: 0o755 }, base[1]])).not.toBe(h);
    expect(contentHash([{ ...base[0], sha256: "2".repeat(64) }, base[1]])).not.toBe(h);
    expect(contentHash([{ ...base[0], name: "c" }, base[1]])).not.toBe(h);
  });

  test("v1 (states of 0.1.0) is only made for a listing without a newline in a path", () => {
    const plain = [{ name: "a", mode: 0o644, sha256: sha }];
    expect(contentHashV1(plain)).toMatch(/^[0-9a-f]{64}$/);
    expect(contentHashV1([...plain, { name: "b\nc", mode: 0o644, sha256: sha }])).toBeUndefined();
  });

  test("a file that fails while it is hashed fails the hash, naming the source", async () => {
    const zip = await makeZip({ "index.js": "i", "data.txt": "x".repeat(4096) });
    const bytes = await readFile(zip);
    // Break data.txt's deflated bytes (they follow its local header and name).
    const at = bytes.indexOf("data.txt") + "data.txt".length;
    bytes.fill(0xff, at, at + 16);
    await writeFile(zip, bytes);
    await expect(hashSource(zip, manifest)).rejects.toMatchObject({
      property: "source",
      message: expect.stringMatching(new RegExp(`^source ${zip}: `)),
    });
  });

  test("the App's manifest is not part of it: settings are inputs, compared on their own", async () => {
    const dir = await tree({ "index.js": "i" });
    expect(await hashSource(dir, { name: "a", ram: 512 })).toBe(
      await hashSource(dir, { name: "b" }),
    );
  });
});

test("escaped names: control characters and bytes that are not UTF-8", () => {
  expect(shownName("a\nb\tc\x7f")).toBe("a\\x0ab\\x09c\\x7f");
  expect(shownName(Buffer.from([0x61, 0xc3, 0xa9, 0xff, 0xe2, 0x82, 0x62]))).toBe(
    "aé\\xff\\xe2\\x82b",
  );
  // Overlong forms, surrogates and code points past U+10FFFF are not UTF-8.
  expect(shownName(Buffer.from([0xe0, 0x80, 0x80]))).toBe("\\xe0\\x80\\x80");
  expect(shownName(Buffer.from([0xed, 0xa0, 0x80]))).toBe("\\xed\\xa0\\x80");
  expect(shownName(Buffer.from([0xf0, 0x80, 0x80, 0x80]))).toBe("\\xf0\\x80\\x80\\x80");
  expect(shownName(Buffer.from([0xf4, 0x90, 0x80, 0x80]))).toBe("\\xf4\\x90\\x80\\x80");
  expect(shownName(Buffer.from([0xc1, 0xbf]))).toBe("\\xc1\\xbf");
  expect(shownName(Buffer.from("😀ü", "utf8"))).toBe("😀ü");
});

afterAll(() => rm(join(process.cwd(), "no-such-app-folder"), { force: true }));
