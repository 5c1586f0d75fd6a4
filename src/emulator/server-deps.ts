import { HostingEmulatorMissingDependencyError } from "./errors";

/*
 * Imported first by the emulator's entry: fastify and @fastify/multipart are optional peer
 * dependencies (provider users never install a server), so say what to install before a bare
 * "Cannot find module" from deep inside the server would.
 */
const missing = ["fastify", "@fastify/multipart"].filter((name) => {
  try {
    require.resolve(name);
    return false;
  } catch {
    return true;
  }
});
if (missing.length > 0) throw new HostingEmulatorMissingDependencyError(missing);
