import { randomBytes } from "node:crypto";
import { mkdtemp, readdir, readlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ARCHIVE_CHUNK_BYTES, archiveChunks } from "../../src/api/archive-chunks";
import { testIf } from "../helpers/test-if";

/* The chunk reader alone: exact bytes, two buffers for any size, a file that changed is refused. */

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "hosting-chunks-"));
});

async function fileOf(bytes: Buffer): Promise<string> {
  const path = join(dir, `${bytes.length}-${Math.random().toString(36).slice(2)}.zip`);
  await writeFile(path, bytes);
  return path;
}

test.each([1, ARCHIVE_CHUNK_BYTES - 1, ARCHIVE_CHUNK_BYTES, 2 * ARCHIVE_CHUNK_BYTES + 1])(
  "a %i-byte file comes out whole, in full chunks but the last, from two buffers",
  async (size) => {
    const bytes = randomBytes(size);
    const seen: Buffer[] = [];
    const backing = new Set<ArrayBufferLike>();
    for await (const chunk of archiveChunks(await fileOf(bytes), size)) {
      seen.push(Buffer.from(chunk)); // a copy: the buffer is refilled two chunks later
      backing.add(chunk.buffer);
    }
    expect(Buffer.concat(seen).equals(bytes)).toBe(true);
    expect(seen.slice(0, -1).every((c) => c.length === ARCHIVE_CHUNK_BYTES)).toBe(true);
    expect(backing.size).toBeLessThanOrEqual(2);
  },
);

test.each([
  ["shorter", 100],
  ["longer", -100],
])("a file %s than its checked size is refused, not sent short", async (_label, delta) => {
  const size = 3 * ARCHIVE_CHUNK_BYTES;
  const path = await fileOf(randomBytes(size - delta));
  const read = async () => {
    for await (const chunk of archiveChunks(path, size)) void chunk;
  };
  await expect(read()).rejects.toThrow(/changed size while it was being uploaded/);
});

/** How many of this process's descriptors are open on `path` (Linux). */
async function openOn(path: string): Promise<number> {
  const fds = await readdir("/proc/self/fd");
  const targets = await Promise.all(
    fds.map((fd) => readlink(`/proc/self/fd/${fd}`).catch(() => "")),
  );
  return targets.filter((t) => t === path).length;
}

const linux = testIf(
  process.platform === "linux",
  "it counts the open files in /proc/self/fd, which only Linux has",
);

linux("stopping early (as undici does when the request fails) closes the file", async () => {
  const path = await fileOf(randomBytes(3 * ARCHIVE_CHUNK_BYTES));
  const chunks = archiveChunks(path, 3 * ARCHIVE_CHUNK_BYTES);
  await chunks.next();
  expect(await openOn(path)).toBe(1);
  await chunks.return(undefined);
  expect(await openOn(path)).toBe(0);
});
