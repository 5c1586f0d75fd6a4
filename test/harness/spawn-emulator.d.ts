import type { ChildProcess } from "node:child_process";

export declare const CLI: string;
export declare function spawnEmulator(
  args?: string[],
  env?: Record<string, string>,
): Promise<{
  child: ChildProcess;
  stderr(): string;
  url: string;
  token: string;
  stop(): Promise<void>;
}>;
export declare function exited(child: ChildProcess): Promise<void>;
