import type { ChildProcess } from "node:child_process";

/** A running emulator bin: where it listens, a token for its first user, and how to stop it. */
export interface SpawnedEmulator {
  child: ChildProcess;
  stderr(): string;
  stdout(): string;
  url: string;
  token: string;
  stop(): Promise<void>;
}

export declare const CLI: string;
export declare function spawnEmulator(
  args?: string[],
  env?: Record<string, string>,
): Promise<SpawnedEmulator>;
export declare function emulatorOf(
  child: ChildProcess,
  signal?: () => void,
): Promise<SpawnedEmulator>;
export declare function exited(child: ChildProcess): Promise<void>;
