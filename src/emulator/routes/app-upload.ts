import { createHash } from "node:crypto";
import { createWriteStream } from "node:fs";
import { join } from "node:path";
import type { IncomingMessage } from "node:http";
import { Transform, type Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { endpoints, wireAssumptions } from "../../api/wire";
import { type Call, type Emu } from "../context";
import { EmulatorReplyError } from "../errors";

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
    throw new EmulatorReplyError(
      400,
      "POST /apps takes multipart/form-data with a project file and env",
    );
  }
  const up: Upload = { bytes: 0, sha256: "" };
  const field = endpoints.createApp.body;
  try {
    const limits = { fileSize: emu.opts.maxUploadBytes, fieldSize: wireAssumptions.maxEnvBytes };
    for await (const part of req.parts({ limits })) {
      if (part.type === "file") {
        if (part.fieldname !== field.project || up.file) {
          part.file.resume();
          throw new EmulatorReplyError(
            400,
            `unexpected file field ${part.fieldname}; send one file as ${field.project}`,
          );
        }
        up.file = join(dir, "project.zip");
        const hash = createHash("sha256");
        const delay = emu.opts.uploadDiskDelayMs;
        const counter = new Transform({
          transform(chunk: Buffer, _enc, cb) {
            up.bytes += chunk.length;
            hash.update(chunk);
            if (delay > 0) setTimeout(() => cb(null, chunk), delay);
            else cb(null, chunk);
          },
        });
        const piping = pipeline(part.file, counter, createWriteStream(up.file));
        piping.catch(() => undefined); // may settle after the watch has already failed
        const watch = truncationWatch(req.raw, part.file);
        try {
          await Promise.race([piping, watch.done]);
        } finally {
          watch.stop();
        }
        if (part.file.truncated) throw tooLarge(emu);
        up.sha256 = hash.digest("hex");
      } else if (part.fieldname === field.env) {
        // Never keep part of it: a cut value would be a different secret.
        if (part.valueTruncated) {
          throw new EmulatorReplyError(
            413,
            `env is larger than the limit of ${wireAssumptions.maxEnvBytes} bytes`,
          );
        }
        up.env = String(part.value ?? "");
      }
    }
  } catch (err) {
    if (err instanceof EmulatorReplyError) throw err;
    const code = (err as { code?: string }).code;
    if (code === "FST_REQ_FILE_TOO_LARGE") throw tooLarge(emu);
    throw new EmulatorReplyError(400, `malformed multipart body: ${(err as Error).message}`);
  }
  return up;
}

/**
 * busboy notices a body that ends inside a file part before anyone listens, and leaves the file
 * stream neither ended nor errored (destroyed at most): the request would hang. Such a body is told from a slow
 * consumer (a busy disk) by what is left to read, never by a timer: once busboy has been handed
 * the whole request and the file stream's buffer is drained without its end pushed, busboy has
 * nothing more to give it. Its pending parse runs within ticks of a read, so if no byte and no
 * end follows within two turns of the event loop, the part was cut.
 */
function truncationWatch(
  raw: IncomingMessage,
  file: Readable,
): { done: Promise<never>; stop: () => void } {
  let fail: (err: Error) => void = () => undefined;
  const done = new Promise<never>((_resolve, reject) => (fail = reject));
  done.catch(() => undefined);
  let bytes = 0;
  let waiting: NodeJS.Immediate | undefined;
  // Cut: destroyed before its end (what it holds is never read), or drained with no end pushed.
  const drained = () =>
    raw.readableEnded &&
    !file.readableEnded &&
    (file.destroyed || (file.readableLength === 0 && !endPushed(file)));
  const probe = () => {
    if (waiting || !drained()) return;
    const seen = bytes;
    waiting = setImmediate(() => {
      waiting = setImmediate(() => {
        waiting = undefined;
        if (drained() && bytes === seen) fail(new Error("body ended inside the project file part"));
        else probe();
      });
    });
  };
  // Attached once the file is piped: a listener attached earlier would start the flow too soon.
  const onData = (c: Buffer) => {
    bytes += c.length;
    probe();
  };
  file.on("data", onData);
  file.on("close", probe);
  raw.on("end", probe);
  probe();
  return {
    done,
    stop: () => {
      file.off("data", onData);
      file.off("close", probe);
      raw.off("end", probe);
      if (waiting) clearImmediate(waiting);
    },
  };
}

/** Whether the stream's source has pushed its end (it may still hold data to read before it). */
const endPushed = (s: Readable) =>
  s.readableEnded ||
  (s as unknown as { _readableState?: { ended?: boolean } })._readableState?.ended === true;

const tooLarge = (emu: Emu) =>
  new EmulatorReplyError(
    413,
    `project archive is larger than the limit of ${emu.opts.maxUploadBytes} bytes`,
  );
