import { HostingError } from "../api/wire";

/*
 * The emulator's own errors, under the client's {@link HostingError} like every error of the
 * package: a stable `code`, and `instanceof` across two loaded copies.
 */

/** The emulator's HTTP server packages are not installed (they are optional peers). */
export class HostingEmulatorMissingDependencyError extends HostingError {
  static override readonly code = "HOSTING_EMULATOR_DEPENDENCY_MISSING";

  constructor(readonly missing: readonly string[]) {
    super(
      `The Hosting emulator needs ${missing.join(" and ")}, which pulumi-hosting leaves out of a ` +
        "provider install. Install them where you run the emulator: " +
        "npm install --save-dev fastify@^5 @fastify/multipart@^9",
      HostingEmulatorMissingDependencyError.code,
    );
  }
}

/** The control token cannot be used; the message names where it came from and the fix. */
export class EmulatorControlTokenError extends HostingError {
  static override readonly code = "HOSTING_EMULATOR_CONTROL_TOKEN_INVALID";

  constructor(message: string) {
    super(message, EmulatorControlTokenError.code);
  }
}

/** A command-line mistake: the bin prints the message and exits with code 2. */
export class EmulatorUsageError extends HostingError {
  static override readonly code = "HOSTING_EMULATOR_USAGE";

  constructor(message: string) {
    super(message, EmulatorUsageError.code);
  }
}

/** The state file cannot be used; the message names the file and what is wrong with it. */
export class EmulatorStateFileError extends HostingError {
  static override readonly code = "HOSTING_EMULATOR_STATE_FILE_INVALID";

  constructor(
    readonly file: string,
    why: string,
    options?: { cause?: unknown },
  ) {
    super(
      `emulator state file ${file} cannot be used: ${why}; fix or remove it (or pick another --state-file)`,
      EmulatorStateFileError.code,
      options,
    );
  }
}

/** An uploaded archive the emulator will not take; a route answers it with a 400. */
export class EmulatorArchiveError extends HostingError {
  static override readonly code = "HOSTING_EMULATOR_ARCHIVE_REJECTED";

  constructor(message: string) {
    super(message, EmulatorArchiveError.code);
  }
}

/** An `{ error }` reply with a status, thrown by route handlers. */
export class EmulatorReplyError extends HostingError {
  static override readonly code = "HOSTING_EMULATOR_REPLY";

  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message, EmulatorReplyError.code);
  }
}
