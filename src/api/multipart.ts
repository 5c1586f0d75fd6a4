import { stat } from "node:fs/promises";
import { basename } from "node:path";
import type FormDataClass from "form-data";
import { once } from "../base";
import { archiveChunks } from "./archive-chunks";
import { endpoints } from "./endpoints";
import { HostingInputError } from "./errors";

/**
 * form-data loads with the first upload, not with the client: its dependencies cost a cold
 * provider host 70 ms before its first request, and a host that only reads or deletes (a destroy,
 * a refresh) never needs it.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const formData = once(() => require("form-data") as typeof FormDataClass);

/** Checks the archive exists before any request; returns its size. */
export async function archiveSize(archivePath: unknown): Promise<number> {
  const shown = JSON.stringify(archivePath);
  let size: number | undefined;
  try {
    if (typeof archivePath !== "string" || archivePath === "") throw new Error("not a path");
    const st = await stat(archivePath);
    if (st.isFile()) size = st.size;
  } catch {
    // reported below
  }
  if (size === undefined) {
    throw new HostingInputError(
      "archivePath",
      `archivePath ${shown} is not a readable file; pass the path of a .zip`,
    );
  }
  // A 0-byte file is no zip: say so before uploading it.
  if (size === 0) {
    throw new HostingInputError(
      "archivePath",
      `archivePath is empty: ${shown}; pass a .zip of the app`,
    );
  }
  return size;
}

/** A request body undici writes chunk by chunk, asking for the next when the socket drained. */
export type UploadBody = AsyncIterable<Uint8Array>;

/**
 * Builds the multipart body of POST /apps (`env` text, `project` file) streamed from disk, so
 * memory stays flat whatever the archive's size. Call once per attempt.
 */
export function archiveForm(
  archivePath: string,
  size: number,
  envText: string,
): { body: UploadBody; headers: Record<string, string> } {
  // form-data writes the framing around an empty stand-in for the file; the file's bytes go in
  // its place as they are read (see archive-chunks.ts for why form-data no longer streams them).
  const form = new (formData())();
  const field = endpoints.createApp.body;
  form.append(field.env, envText);
  form.append(field.project, Buffer.alloc(0), {
    filename: basename(archivePath),
    contentType: "application/zip",
  });
  const framing = form.getBuffer();
  // The last part's closing line break, then the closing boundary.
  const tail = Buffer.from(`\r\n--${form.getBoundary()}--\r\n`, "latin1");
  if (!framing.subarray(framing.length - tail.length).equals(tail)) {
    throw new Error("form-data no longer ends a form with the file part's closing boundary");
  }
  const head = framing.subarray(0, framing.length - tail.length);
  const headers: Record<string, string> = {
    ...form.getHeaders(),
    "content-length": String(framing.length + size),
  };
  return { body: framed(head, archiveChunks(archivePath, size), tail), headers };
}

/** The form's head and tail are buffers of their own, never refilled. */
async function* framed(
  head: Buffer,
  file: AsyncIterable<Buffer>,
  tail: Buffer,
): AsyncGenerator<Buffer> {
  yield head;
  yield* file;
  yield tail;
}
