import type { ChildProcess } from "node:child_process";

export type Located = { binDir: string; version: string; source: string } | { missing: string };

export interface CliResult {
  code: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
  ms: number;
}

export interface EngineStep {
  op: string;
  urn: string;
  type: string;
  name: string;
  diffs: string[];
  detailedDiff?: Record<string, { kind: string; inputDiff?: boolean }>;
}

/** One line of `--event-log`: an engine event, keyed by its kind. */
export type EngineEvent = Record<string, unknown>;

/** A resource as `pulumi stack export` writes it. */
export interface CheckpointResource {
  urn: string;
  type: string;
  custom?: boolean;
  id?: string;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
}

/** What `pulumi stack export` prints and `pulumi stack import` takes. */
export interface Checkpoint {
  version: number;
  deployment: { resources?: CheckpointResource[] } & Record<string, unknown>;
}

export interface EngineRun extends CliResult {
  ok: boolean;
  events: EngineEvent[];
  steps: EngineStep[];
  diagnostics: Array<{ message: string; severity: string; urn?: string }>;
}

export interface RunOptions {
  env?: Record<string, string>;
  timeoutMs?: number;
  onStdout?: (chunk: string, child: ChildProcess) => void;
  onSpawn?: (child: ChildProcess) => void;
}

export declare const PASSPHRASE: string;
export declare function engine(): Located;
/** The YAML language host beside the CLI in `binDir`, on PATH or built; or why there is none. */
export declare function locateYaml(binDir: string): { binDir: string } | { missing: string };
export declare function killGroup(child: ChildProcess, signal?: NodeJS.Signals): void;
export declare function engineEnv(
  where: { binDir: string; home: string; backend: string; path?: string[] },
  extra?: Record<string, string>,
): NodeJS.ProcessEnv;
export declare function readEvents(file: string): EngineEvent[];
export declare function stepsOf(events: EngineEvent[]): EngineStep[];

export declare class PulumiStack {
  constructor(o: {
    dir: string;
    project: string;
    stack?: string;
    work?: string;
    env?: Record<string, string>;
  });
  readonly binDir: string;
  readonly dir: string;
  readonly project: string;
  readonly stack: string;
  readonly work: string;
  readonly backend: string;
  readonly home: string;
  env(extra?: Record<string, string>): NodeJS.ProcessEnv;
  pulumi(args: string[], o?: RunOptions): Promise<CliResult>;
  ok(args: string[], o?: RunOptions): Promise<CliResult>;
  init(o?: {
    config?: Record<string, string | number>;
    secrets?: Record<string, string>;
    main?: string;
  }): Promise<this>;
  setConfig(
    config?: Record<string, string | number>,
    secrets?: Record<string, string>,
  ): Promise<void>;
  op(
    op: "preview" | "up" | "refresh" | "destroy",
    flags?: string[],
    o?: RunOptions,
  ): Promise<EngineRun>;
  preview(flags?: string[], o?: RunOptions): Promise<EngineRun>;
  up(flags?: string[], o?: RunOptions): Promise<EngineRun>;
  refresh(flags?: string[], o?: RunOptions): Promise<EngineRun>;
  destroy(flags?: string[], o?: RunOptions): Promise<EngineRun>;
  outputs(o?: { showSecrets?: boolean }): Promise<Record<string, unknown>>;
  exportState(): Promise<{ text: string; deployment: Checkpoint }>;
  importState(deployment: unknown): Promise<CliResult>;
  checkpointText(): string;
  resources(): Promise<CheckpointResource[]>;
}
