/**
 * A local emulator of the Hosting Management API for offline stacks, demos and tests: a real
 * HTTP server (fastify) with a seeded world, tokens, faults on demand and request stats.
 * @module pulumi-hosting/emulator
 */
// First: a clear error when the optional server packages are missing.
import "./server-deps";
import type { AddressInfo } from "node:net";
import type { Emu } from "./context";
import { exposureWarning } from "./control-access";
import type { FaultConfig } from "./fault-config";
import { Faults } from "./faults";
import { resolveOptions, type EmulatorOptions } from "./options";
import { Rng } from "./rng";
import { issueToken } from "./routes/control";
import { buildServer } from "./server";
import { Stats, type StatsSnapshot } from "./stats";
import { Store } from "./store";
import type { World } from "./world";

export type { EmulatorOptions } from "./options";
export type { FaultConfig, FaultKind, FaultRule, RateLimitRule } from "./fault-config";
export type { StatsSnapshot } from "./stats";
export type {
  AppRecord,
  BackupRecord,
  DatabaseRecord,
  DeploymentRecord,
  DomainRecord,
  UserRecord,
  VmRecord,
  WorkspaceRecord,
  World,
} from "./world";

/** A user of a running emulator. */
export interface EmulatorUser {
  /** The user's id. */
  id: string;
  /** A short name, e.g. `alice`. */
  name: string;
}

/** A started emulator: where it listens, tokens for its users, its stats, and how to stop it. */
export interface RunningEmulator {
  /** Base URL of the API (no trailing slash), e.g. http://127.0.0.1:41235 */
  url: string;
  /** A signed token for a user (by id or name; the first user when omitted). */
  issueToken(userId?: string, options?: { expiresInSeconds?: number }): string;
  /** The seeded users; the first is the default of `issueToken`. */
  users: EmulatorUser[];
  /** Requests per route and faults injected so far. */
  stats(): StatsSnapshot;
  /** Sets every request and fault count back to zero. */
  resetStats(): void;
  /** Replaces the fault configuration. */
  setFaults(config: FaultConfig): void;
  /** The live state (read it, don't hold on to it). */
  readonly world: World;
  /** Closes the server (the state file, if any, is already up to date). */
  stop(): Promise<void>;
}

/**
 * Starts the Hosting API emulator: a real HTTP server, by default on 127.0.0.1 and a free port.
 * @example
 * ```ts
 * const emu = await startEmulator({ seed: "test" });
 * const token = emu.issueToken(); // the first user's
 * // … point HOSTING_API_URL at emu.url, then:
 * await emu.stop();
 * ```
 */
export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const opts = resolveOptions(options);
  const store = new Store(opts.seed, opts.stateFile);
  let url = "";
  const emu: Emu = {
    store,
    get world() {
      return store.world;
    },
    opts,
    rng: new Rng(`ids:${opts.seed}:${store.world.apps.length}`),
    baseUrl: () => url,
  };
  const faults = new Faults(opts.seed, options.faults);
  const stats = new Stats();
  const app = buildServer(emu, faults, stats);
  await app.listen({ port: opts.port, host: opts.host });
  const exposed = exposureWarning(opts.host, opts.controlToken);
  if (exposed) opts.warn(exposed);
  const addr = app.server.address() as AddressInfo;
  const host = addr.family === "IPv6" ? `[${addr.address}]` : addr.address;
  url = `http://${host}:${addr.port}`;
  return {
    url,
    issueToken: (userId, o) => issueToken(emu, userId, o?.expiresInSeconds),
    users: store.world.users.map((u) => ({ id: u.id, name: u.name })),
    stats: () => stats.snapshot(),
    resetStats: () => stats.reset(),
    setFaults: (config) => faults.configure(config),
    get world() {
      return store.world;
    },
    stop: async () => {
      await app.close();
    },
  };
}
