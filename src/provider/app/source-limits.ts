import { HostingInputError } from "../../api/errors";

/**
 * How much a source may hold, checked from the sizes the walk sees before any file is read: a
 * preview never reads a 20 GiB file to learn that it is too large. Documented in the README.
 */
export const SOURCE_LIMITS = {
  /** One file, in bytes (256 MiB). */
  fileBytes: 256 * 1024 * 1024,
  /** All files together, before compression, in bytes (1 GiB). */
  totalBytes: 1024 * 1024 * 1024,
  /** `.hostingignore`, in bytes (1 MiB). */
  ignoreFileBytes: 1024 * 1024,
} as const;

const MIB = 1024 * 1024;

/** Adds up a source's file sizes, refusing the file that passes a limit. */
export class SizeTally {
  private total = 0;

  add(shown: string, size: number): void {
    if (size > SOURCE_LIMITS.fileBytes) {
      throw new HostingInputError(
        "source",
        `source/${shown} is ${mib(size)} MiB, more than the ${mib(SOURCE_LIMITS.fileBytes)} MiB ` +
          "a file of a source may hold; list it in .hostingignore and fetch it at run time",
      );
    }
    this.total += size;
    if (this.total > SOURCE_LIMITS.totalBytes) {
      throw new HostingInputError(
        "source",
        `source holds more than ${mib(SOURCE_LIMITS.totalBytes)} MiB of files (passed at ` +
          `source/${shown}); list large files or folders in .hostingignore`,
      );
    }
  }
}

const mib = (n: number) => Math.ceil(n / MIB);
