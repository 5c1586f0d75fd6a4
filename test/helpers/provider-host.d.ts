export type Props = Record<string, unknown>;

export interface InitFailure {
  message: string;
  id: string;
  properties: Props;
  reasons: string[];
}

export declare class ProviderHost {
  static start(env?: Record<string, string>, cwd?: string): Promise<ProviderHost>;
  /**
   * The package's native plugin (plugin/pulumi-resource-hosting, or the file `plugin`) instead of
   * Pulumi's dynamic-provider host, run by its `#!` line.
   */
  static startNative(
    env?: Record<string, string>,
    cwd?: string,
    plugin?: string,
  ): Promise<ProviderHost>;
  invoke(
    tok: string,
    args: Props,
  ): Promise<{ outputs: Props; failures: Array<{ property: string; reason: string }> }>;
  getSchema(): Promise<Record<string, unknown>>;
  readonly stderr: () => string;
  /**
   * The text of `stream` once every pattern is in it (or, past `deadlineMs`, as it is, for the
   * test's own assertion to show): a reply can come before its line.
   */
  printed(
    stream: "stdout" | "stderr",
    patterns: Array<string | RegExp>,
    deadlineMs?: number,
  ): Promise<string>;
  /** What the host printed after its port line: what the engine shows the user as info. */
  readonly stdout: () => string;
  configure(config: Record<string, unknown>): Promise<void>;
  check(
    urn: string,
    olds: Props,
    news: Props,
  ): Promise<{ inputs: Props; failures: Array<{ property: string; reason: string }> }>;
  diff(
    id: string,
    urn: string,
    olds: Props,
    news: Props,
  ): Promise<{ changes: boolean | undefined; replaces: string[]; deleteBeforeReplace: boolean }>;
  create(urn: string, props: Props): Promise<{ id: string; properties: Props }>;
  read(
    id: string,
    urn: string,
    props: Props,
    inputs?: Props,
  ): Promise<{ id: string; properties: Props; inputs?: Props }>;
  update(id: string, urn: string, olds: Props, news: Props): Promise<Props>;
  delete(id: string, urn: string, props: Props): Promise<void>;
  /** Kills the host at once (SIGKILL), as a crash would; pending calls fail. */
  kill(): Promise<void>;
  stop(): Promise<void>;
}
