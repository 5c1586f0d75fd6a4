export interface Step {
  urn: string;
  op: "create" | "update" | "replace" | "delete" | "same" | "retain";
  replaces?: string[];
}

export interface RunResult {
  ok: boolean;
  code: number;
  stdout: string;
  stderr: string;
  steps: Step[];
  outputs: Record<string, unknown>;
  secretOutputs: string[];
  logs: Array<{ severity: number; message: string; urn: string }>;
}

export interface DeploymentOptions {
  programDir: string;
  stateFile: string;
  config: Record<string, string>;
  secretConfigKeys?: string[];
  project?: string;
  stack?: string;
  providerCwd?: string;
  env?: Record<string, string>;
}

/** `{ refresh: true }`: refresh first, in the same provider host (`pulumi up --refresh`). */
export interface RunOptions {
  refresh?: boolean;
}

export declare class Deployment {
  constructor(o: DeploymentOptions);
  preview(o?: RunOptions): Promise<RunResult & { refreshed?: { steps: Step[] } }>;
  up(o?: RunOptions): Promise<RunResult & { refreshed?: { steps: Step[] } }>;
  refresh(): Promise<{ steps: Step[] }>;
  destroy(): Promise<{ steps: Step[] }>;
}
