import { HostingError } from "../api/wire";

/*
 * The emulator's own errors, under the client's {@link HostingError} like every error of the
 * package: a stable `code`, and `instanceof` across two loaded copies.
 */

/** The emulator's HTTP server packages are not installed (they are optional peers). */
export class HostingEmulatorMissingDependencyError extends HostingError {
  constructor(readonly missing: readonly string[]) {
    super(
      `The Hosting emulator needs ${missing.join(" and ")}, which pulumi-hosting leaves out of a ` +
        "provider install. Install them where you run the emulator: " +
        "npm install --save-dev fastify@^5 @fastify/multipart@^9",
      "HOSTING_EMULATOR_DEPENDENCY_MISSING",
    );
  }
}

/** The control token cannot be used; the message names where it came from and the fix. */
export class EmulatorControlTokenError extends HostingError {
  constructor(message: string) {
    super(message, "HOSTING_EMULATOR_CONTROL_TOKEN_INVALID");
  }
}

/** A command-line mistake: the bin prints the message and exits with code 2. */
export class EmulatorUsageError extends HostingError {
  constructor(message: string) {
    super(message, "HOSTING_EMULATOR_USAGE");
  }
}

/** The state file cannot be used; the message names the file and what is wrong with it. */
export class EmulatorStateFileError extends HostingError {
  constructor(
    readonly file: string,
    why: string,
    options?: { cause?: unknown },
  ) {
    super(
      `emulator state file ${file} cannot be used: ${why}; fix or remove it (or pick another --state-file)`,
      "HOSTING_EMULATOR_STATE_FILE_INVALID",
      options,
    );
  }
}

/** An uploaded archive the emulator will not take; a route answers it with a 400. */
export class EmulatorArchiveError extends HostingError {
  constructor(message: string) {
    super(message, "HOSTING_EMULATOR_ARCHIVE_REJECTED");
  }
}

/** An `{ error }` reply with a status, thrown by route handlers. */
export class EmulatorReplyError extends HostingError {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message, "HOSTING_EMULATOR_REPLY");
  }
}
