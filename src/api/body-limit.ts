/*
 * Replies are read with a ceiling: a body past it is refused as soon as it is known to be too
 * big (from Content-Length, or while streaming), and the connection is dropped, so a hostile or
 * broken server cannot make the client hold a gigabyte.
 */

export const DEFAULT_MAX_RESPONSE_BYTES = 32 * 1024 * 1024;

interface Body extends AsyncIterable<Buffer> {
  destroy(err?: Error): unknown;
}

export type BoundedRead = { text: string } | { tooLarge: true };

export async function readBounded(
  body: Body,
  headers: Readonly<Record<string, string | string[] | undefined>>,
  maxBytes: number,
  onChunk: () => void,
): Promise<BoundedRead> {
  const declared = Number(headers["content-length"]);
  if (Number.isFinite(declared) && declared > maxBytes) {
    body.destroy();
    return { tooLarge: true };
  }
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of body) {
    onChunk();
    total += chunk.length;
    if (total > maxBytes) {
      body.destroy();
      return { tooLarge: true };
    }
    chunks.push(chunk);
  }
  return { text: Buffer.concat(chunks, total).toString("utf8") };
}
