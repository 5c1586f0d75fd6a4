import type { ChildProcess } from "node:child_process";

export declare function spawnEmulator(args?: string[]): Promise<{
  child: ChildProcess;
  url: string;
  token: string;
  stop(): Promise<void>;
}>;
export declare function exited(child: ChildProcess): Promise<void>;
