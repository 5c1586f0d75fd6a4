import { HostingError } from "../api/wire";

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
