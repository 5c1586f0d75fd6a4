import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { basename } from "node:path";
import { PassThrough, type Readable } from "node:stream";
import FormData from "form-data";
import { endpoints } from "./endpoints";
import { HostingInputError } from "./errors/input-error";

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
  // A 0-byte file is no zip, and form-data cannot stream it with a known length.
  if (size === 0) {
    throw new HostingInputError(
      "archivePath",
      `archivePath is empty: ${shown}; pass a .zip of the app`,
    );
  }
  return size;
}

/**
 * Builds the multipart body of POST /apps (`project` file, `env` text) as a stream read from disk,
 * so memory stays flat whatever the archive's size. Call once per attempt.
 */
export function archiveForm(
  archivePath: string,
  size: number,
  envText: string,
): { body: Readable; headers: Record<string, string> } {
  const form = new FormData();
  const field = endpoints.createApp.body;
  form.append(field.env, envText);
  form.append(field.project, createReadStream(archivePath), {
    filename: basename(archivePath),
    contentType: "application/zip",
    knownLength: size,
  });
  const headers: Record<string, string> = {
    ...form.getHeaders(),
    "content-length": String(form.getLengthSync()),
  };
  // form-data is an old-style stream; undici wants a Readable.
  const body = new PassThrough();
  form.on("error", (err: Error) => body.destroy(err));
  form.pipe(body);
  return { body, headers };
}
