import { createWriteStream } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import yazl from "yazl";

/**
 * Writes a zip with the given entries (name → content) and returns its path. `compress: false`
 * stores them as they are: quick for large random blobs, which deflate would not shrink anyway.
 */
export async function makeZip(
  entries: Record<string, string | Buffer>,
  { compress = true }: { compress?: boolean } = {},
): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "hosting-test-"));
  const file = join(dir, "app.zip");
  const zip = new yazl.ZipFile();
  for (const [name, content] of Object.entries(entries)) {
    zip.addBuffer(Buffer.isBuffer(content) ? content : Buffer.from(content), name, { compress });
  }
  zip.end();
  await new Promise<void>((resolve, reject) => {
    zip.outputStream.pipe(createWriteStream(file)).on("close", resolve).on("error", reject);
  });
  return file;
}

export const manifest = (m: Record<string, unknown>) => JSON.stringify(m);
