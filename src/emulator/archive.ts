import yauzl from "yauzl";
import { wireAssumptions } from "../api/wire";
import { EmulatorArchiveError } from "./errors";

export interface ArchiveInfo {
  entries: number;
  /** Text of the manifest at the root, when there is one. */
  manifest?: string;
}

const MAX_MANIFEST_BYTES = wireAssumptions.maxManifestBytes;

/** Reads a zip's directory: rejects absolute or climbing entry names, and pulls out the manifest. */
export function inspectArchive(file: string): Promise<ArchiveInfo> {
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true, strictFileNames: false }, (err, zip) => {
      if (err || !zip) {
        reject(new EmulatorArchiveError("project is not a zip archive"));
        return;
      }
      const info: ArchiveInfo = { entries: 0 };
      const fail = (e: Error) => {
        zip.close();
        reject(e);
      };
      zip.on("error", (e: Error) => {
        // yauzl checks entry names itself and reports a climbing or absolute one as an error.
        const m = /^(?:invalid relative path|absolute path): (.*)$/.exec(e.message);
        const why = m
          ? `archive entry ${JSON.stringify(m[1])} escapes the archive root`
          : "project is not a readable zip archive";
        fail(new EmulatorArchiveError(why));
      });
      zip.on("end", () => resolve(info));
      zip.on("entry", (entry: yauzl.Entry) => {
        info.entries++;
        const name = entry.fileName;
        if (/^([/\\]|[A-Za-z]:)/.test(name) || name.split(/[/\\]/).includes("..")) {
          fail(
            new EmulatorArchiveError(
              `archive entry ${JSON.stringify(name)} escapes the archive root`,
            ),
          );
          return;
        }
        if (name !== wireAssumptions.manifestFileName) {
          zip.readEntry();
          return;
        }
        if (entry.uncompressedSize > MAX_MANIFEST_BYTES) {
          fail(new EmulatorArchiveError(`${name} is larger than ${MAX_MANIFEST_BYTES} bytes`));
          return;
        }
        zip.openReadStream(entry, (e, stream) => {
          if (e || !stream) return fail(new EmulatorArchiveError(`${name} cannot be read`));
          const chunks: Buffer[] = [];
          stream.on("data", (c: Buffer) => chunks.push(c));
          stream.on("error", () => fail(new EmulatorArchiveError(`${name} cannot be read`)));
          stream.on("end", () => {
            info.manifest = Buffer.concat(chunks).toString("utf8");
            zip.readEntry();
          });
        });
      });
      zip.readEntry();
    });
  });
}
