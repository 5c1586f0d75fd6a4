import { randomBytes } from "node:crypto";
import { mkdtemp, open, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import yauzl from "yauzl";
import { folderFiles } from "../../src/provider/app/folder-walk";
import { writeZip, type ZipInput } from "../../src/provider/app/zip-writer";

/*
 * The packer's zip, read back by yauzl (what the emulator reads with) and checked entry by entry:
 * small files read whole (deflated, or stored when deflate does not shrink them), large ones
 * streamed with a descriptor, and empty ones. (Past 65,535 entries the zip64 end records: 70,000
 * entries read back whole took 48 s on a loaded machine, too slow for the suite; checked by hand.)
 */

let dir: string;
beforeAll(async () => (dir = await mkdtemp(join(tmpdir(), "zip-writer-"))));
afterAll(() => rm(dir, { recursive: true, force: true }));

const input = (name: string, bytes: Buffer, mode = 0o644): ZipInput => ({
  name,
  mode,
  open: async () => Readable.from(chunks(bytes)),
});

function* chunks(b: Buffer) {
  for (let i = 0; i < b.length; i += 65536) yield b.subarray(i, i + 65536);
}

async function write(name: string, inputs: ZipInput[]) {
  const path = join(dir, name);
  const fh = await open(path, "wx");
  try {
    return { path, written: await writeZip(inputs, fh) };
  } finally {
    await fh.close();
  }
}

interface Read {
  name: string;
  mode: number;
  method: number;
  data: Buffer;
}

function readBack(path: string): Promise<Read[]> {
  return new Promise((resolve, reject) => {
    yauzl.open(path, { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(err);
      const out: Read[] = [];
      zip.on("error", reject).on("end", () => resolve(out));
      zip.on("entry", (e: yauzl.Entry) => {
        zip.openReadStream(e, async (err2, s) => {
          if (err2 || !s) return reject(err2);
          const parts: Buffer[] = [];
          for await (const c of s) parts.push(c as Buffer);
          out.push({
            name: e.fileName,
            mode: (e.externalFileAttributes >>> 16) & 0o777,
            method: e.compressionMethod,
            data: Buffer.concat(parts),
          });
          zip.readEntry();
        });
      });
      zip.readEntry();
    });
  });
}

test("small, large, empty and incompressible files come back byte for byte, modes kept", async () => {
  const text = Buffer.from("console.log('hi');\n".repeat(500));
  const large = Buffer.from(randomBytes(1024).toString("hex").repeat(1500)); // 3 MB, streamed
  const random = randomBytes(5000);
  const inputs = [
    input("a.js", text),
    input("bin/run", text, 0o755),
    input("big/data.txt", large),
    input("empty", Buffer.alloc(0)),
    input("noise.bin", random),
    input("ünï/名前.txt", Buffer.from("utf8 name\n")),
  ];
  const { path, written } = await write("mixed.zip", inputs);
  const back = await readBack(path);
  expect(back.map((e) => e.name)).toEqual(inputs.map((i) => i.name));
  expect(back.map((e) => e.mode)).toEqual([0o644, 0o755, 0o644, 0o644, 0o644, 0o644]);
  expect(back[0].data.equals(text)).toBe(true);
  expect(back[2].data.equals(large)).toBe(true);
  expect(back[3].data.length).toBe(0);
  expect(back[4].data.equals(random)).toBe(true);
  expect(back[4].method).toBe(0); // deflate would only have grown it
  expect(back[0].method).toBe(8);
  expect(written.sha256).toHaveLength(inputs.length);
  expect(written.sha256[3]).toBe(
    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
  );
});

test("the same inputs give the same bytes", async () => {
  const inputs = () => [input("x", Buffer.from("same\n".repeat(100))), input("y", Buffer.alloc(0))];
  const a = await write("same-1.zip", inputs());
  const b = await write("same-2.zip", inputs());
  const { readFile } = await import("node:fs/promises");
  expect((await readFile(a.path)).equals(await readFile(b.path))).toBe(true);
});

test("a file that fails while read fails the archive, naming what the stream said", async () => {
  const broken: ZipInput = {
    name: "broken",
    mode: 0o644,
    open: async () =>
      new Readable({
        read() {
          this.destroy(new Error("source/broken cannot be read (EIO)"));
        },
      }),
  };
  const large = Buffer.alloc(3 << 20, 1);
  const brokenLarge: ZipInput = {
    name: "broken-large",
    mode: 0o644,
    open: async () => {
      let sent = 0;
      return new Readable({
        read() {
          if (sent > 2 << 20) return this.destroy(new Error("source/broken-large changed"));
          sent += 65536;
          this.push(large.subarray(0, 65536));
        },
      });
    },
  };
  await expect(write("broken.zip", [input("a", Buffer.from("a")), broken])).rejects.toThrow(
    "source/broken cannot be read",
  );
  await expect(write("broken-large.zip", [brokenLarge])).rejects.toThrow(
    "source/broken-large changed",
  );
});

/*
 * A folder's small files are read whole, each held to what the walk saw: packed as listed, and
 * refused, naming the file, when one was rewritten after the listing (the bytes read would not
 * be the ones hashed).
 */
describe("a folder's files, read whole", () => {
  test("come back byte for byte, the large one streamed", async () => {
    const root = await mkdtemp(join(dir, "tree-"));
    const small = Buffer.from("module.exports = 1;\n".repeat(50));
    const large = randomBytes(2 << 20);
    await writeFile(join(root, "a.js"), small);
    await writeFile(join(root, "b.bin"), large);
    await writeFile(join(root, "c.txt"), "");
    const { files } = await folderFiles(root);
    const { path } = await write("folder.zip", files);
    const back = await readBack(path);
    expect(back.map((e) => [e.name, e.data.length])).toEqual([
      ["a.js", small.length],
      ["b.bin", large.length],
      ["c.txt", 0],
    ]);
    expect(back[0].data.equals(small)).toBe(true);
    expect(back[1].data.equals(large)).toBe(true);
  });

  test("a file rewritten after the listing is refused, naming it", async () => {
    const root = await mkdtemp(join(dir, "tree-"));
    await writeFile(join(root, "app.js"), "console.log(1);\n");
    const { files } = await folderFiles(root);
    await writeFile(join(root, "app.js"), "console.log('changed after the check');\n");
    await expect(write("rewritten.zip", files)).rejects.toMatchObject({
      message: expect.stringContaining("source/app.js changed while the source was read"),
    });
  });
});
