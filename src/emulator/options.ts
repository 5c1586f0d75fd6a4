import { assertControlToken } from "./control-token";
import type { FaultConfig } from "./fault-config";

/** Options of {@link startEmulator}; every one has a default. */
export interface EmulatorOptions {
  /** Port to listen on; 0 picks a free one (default 0). */
  port?: number;
  /** Interface to bind (default 127.0.0.1). */
  host?: string;
  /** Makes the seeded world, IDs and fault dice repeatable. */
  seed?: string;
  /** Keep state in this JSON file; every acknowledged change is written before the reply. */
  stateFile?: string;
  /** Faults to inject from the start (default none); `setFaults` replaces them later. */
  faults?: FaultConfig;
  /** How long a new app takes before `setup` is true (default 200 ms). */
  setupDelayMs?: number;
  /**
   * Apps whose setup fails, by app name: the deployment carries this `error` and the app's
   * `setup` stays false (default none).
   */
  setupErrors?: Record<string, string>;
  /** How long a custom hostname stays pending before it is active (default 500 ms). */
  domainActivationMs?: number;
  /**
   * The clock that times setup, domain activation and the rate-limit windows (default
   * `Date.now`): a test shares one with the provider's or the client's waits so neither waits in
   * real time.
   */
  now?: () => number;
  /** Youngest age at which a backup may be deleted (default 24 h). */
  minBackupRetentionMs?: number;
  /** Largest accepted upload (default 256 MiB). */
  maxUploadBytes?: number;
  /**
   * How long writing each received chunk of an upload to disk takes, in ms (default 0): a slow
   * or busy disk, for tests that a complete upload is accepted however long it takes to store.
   */
  uploadDiskDelayMs?: number;
  /**
   * Keep each accepted upload as `<folder>/<app id>.zip` (default: none kept), so a test can
   * read back exactly what a create uploaded. The folder must exist.
   */
  keepArchivesIn?: string;
  /** Domains under this suffix count as pointed at the edge (default `.pointed.test`). */
  pointedDomainSuffix?: string;
  /**
   * Answer a repeated POST's `Idempotency-Key` with the first reply (default true); false acts
   * as a service that ignores the header: every POST is served anew.
   */
  honourIdempotencyKeys?: boolean;
  /** Log requests to stdout (default false). */
  logger?: boolean;
  /**
   * Bearer token the control API (/__emulator/*) requires: visible ASCII, no spaces. Without
   * one it answers loopback peers that address it as localhost, 127.0.0.1 or [::1] only.
   */
  controlToken?: string;
  /** Where start-up warnings go (default: console.warn). */
  warn?: (message: string) => void;
}

export type ResolvedOptions = Required<
  Omit<EmulatorOptions, "stateFile" | "faults" | "seed" | "controlToken" | "keepArchivesIn">
> & {
  stateFile?: string;
  keepArchivesIn?: string;
  seed: string;
  controlToken?: string;
};

export function resolveOptions(o: EmulatorOptions): ResolvedOptions {
  if (o.controlToken !== undefined) assertControlToken(o.controlToken, "the controlToken option");
  return {
    port: o.port ?? 0,
    host: o.host ?? "127.0.0.1",
    seed: o.seed ?? `${Date.now()}-${Math.random()}`,
    stateFile: o.stateFile,
    keepArchivesIn: o.keepArchivesIn,
    setupDelayMs: o.setupDelayMs ?? 200,
    domainActivationMs: o.domainActivationMs ?? 500,
    setupErrors: { ...o.setupErrors },
    now: o.now ?? (() => Date.now()),
    minBackupRetentionMs: o.minBackupRetentionMs ?? 24 * 3600_000,
    maxUploadBytes: o.maxUploadBytes ?? 256 * 1024 * 1024,
    uploadDiskDelayMs: o.uploadDiskDelayMs ?? 0,
    pointedDomainSuffix: o.pointedDomainSuffix ?? ".pointed.test",
    honourIdempotencyKeys: o.honourIdempotencyKeys ?? true,
    logger: o.logger ?? false,
    controlToken: o.controlToken,
    warn: o.warn ?? ((message) => console.warn(message)),
  };
}
