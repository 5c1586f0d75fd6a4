import { createHash } from "node:crypto";
import { createWriteStream } from "node:fs";
import { join } from "node:path";
import type { IncomingMessage } from "node:http";
import { Transform, type Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { endpoints, wireAssumptions } from "../../api/endpoints";
import { ApiFailure, type Call, type Emu } from "../context";

/* POST /apps, part one: the multipart body, streamed to a temp folder with its size and hash. */

export interface Upload {
  file?: string;
  bytes: number;
  sha256: string;
  env?: string;
}

export async function readUpload(emu: Emu, call: Call, dir: string): Promise<Upload> {
  const req = call.req;
  if (!req.isMultipart()) {
    throw new ApiFailure(400, "POST /apps takes multipart/form-data with a project file and env");
  }
  const up: Upload = { bytes: 0, sha256: "" };
  const field = endpoints.createApp.body;
  try {
    const limits = { fileSize: emu.opts.maxUploadBytes, fieldSize: wireAssumptions.maxEnvBytes };
    for await (const part of req.parts({ limits })) {
      if (part.type === "file") {
        if (part.fieldname !== field.project || up.file) {
          part.file.resume();
          throw new ApiFailure(
            400,
            `unexpected file field ${part.fieldname}; send one file as ${field.project}`,
          );
        }
        up.file = join(dir, "project.zip");
        const hash = createHash("sha256");
        const counter = new Transform({
          transform(chunk: Buffer, _enc, cb) {
            up.bytes += chunk.length;
            hash.update(chunk);
            cb(null, chunk);
          },
        });
        const watch = truncationWatch(req.raw, part.file, () => up.bytes);
        try {
          const piping = pipeline(part.file, counter, createWriteStream(up.file));
          piping.catch(() => undefined); // may settle after the watch has already failed
          await Promise.race([piping, watch.done]);
        } finally {
          watch.stop();
        }
        if (part.file.truncated) throw tooLarge(emu);
        up.sha256 = hash.digest("hex");
      } else if (part.fieldname === field.env) {
        // Never keep part of it: a cut value would be a different secret.
        if (part.valueTruncated) {
          throw new ApiFailure(
            413,
            `env is larger than the limit of ${wireAssumptions.maxEnvBytes} bytes`,
          );
        }
        up.env = String(part.value ?? "");
      }
    }
  } catch (err) {
    if (err instanceof ApiFailure) throw err;
    const code = (err as { code?: string }).code;
    if (code === "FST_REQ_FILE_TOO_LARGE") throw tooLarge(emu);
    throw new ApiFailure(400, `malformed multipart body: ${(err as Error).message}`);
  }
  return up;
}

/**
 * busboy notices a body that ends inside a file part before anyone listens, and leaves the file
 * stream neither ended nor errored: the request would hang. Backpressure means the body is only
 * complete once the file's data has been pulled, so a file part that neither ends nor moves for a
 * while after the body is in was cut short. A part still moving, or ended and only being written
 * to disk, is not: on a loaded machine that can take longer than the grace.
 */
function truncationWatch(
  raw: IncomingMessage,
  file: Readable,
  progress: () => number,
): { done: Promise<never>; stop: () => void } {
  let timer: NodeJS.Timeout | undefined;
  let fail: (err: Error) => void = () => undefined;
  const done = new Promise<never>((_resolve, reject) => (fail = reject));
  done.catch(() => undefined);
  let seen = -1;
  let stopped = false;
  const check = () => {
    if (stopped) return;
    if (file.readableEnded || progress() !== seen) arm();
    else fail(new Error("body ended inside the project file part"));
  };
  const arm = () => {
    seen = progress();
    // The check runs after the I/O a blocked event loop has queued: its bytes are progress too.
    timer = setTimeout(() => setImmediate(check), 500);
  };
  if (raw.complete) arm();
  else raw.once("end", arm);
  return {
    done,
    stop: () => {
      raw.off("end", arm);
      stopped = true;
      if (timer) clearTimeout(timer);
    },
  };
}

const tooLarge = (emu: Emu) =>
  new ApiFailure(
    413,
    `project archive is larger than the limit of ${emu.opts.maxUploadBytes} bytes`,
  );
