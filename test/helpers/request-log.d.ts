import type { ChildProcess } from "node:child_process";

export interface LoggedRequest {
  /** When the emulator answered, in ms since the epoch. */
  at: number;
  method: string;
  url: string;
  status: number;
}

export declare function requestLog(child: ChildProcess): LoggedRequest[];
