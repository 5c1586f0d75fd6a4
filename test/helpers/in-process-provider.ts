import { Struct, type JavaScriptValue } from "google-protobuf/google/protobuf/struct_pb";
import { Config } from "@pulumi/pulumi/cmd/dynamic-provider/config";
import { getProject } from "@pulumi/pulumi/metadata";
import { unwrapRpcSecret } from "@pulumi/pulumi/runtime/rpc";
import type { InitFailure, ProviderHost, Props } from "./provider-host";
import type { Clock } from "../../src/base";

type Handlers = typeof import("../../src/provider/handlers");
type Methods = ReturnType<Handlers["providerHandlers"]>;

/** What a provider test drives: the calls of Pulumi's provider host, by either road. */
export type ProviderCalls = Pick<
  ProviderHost,
  "configure" | "check" | "diff" | "create" | "read" | "update" | "delete" | "stop"
>;

const PROVIDER_KEY = "__provider";

/** A property bag as it crosses the host's gRPC boundary (Struct out and back). */
const wire = (o: Props | undefined): Props =>
  Struct.fromJavaScript((o ?? {}) as Record<string, JavaScriptValue>).toJavaScript() as Props;

/**
 * The provider handlers called in this process the way Pulumi's dynamic-provider host
 * (`@pulumi/pulumi/cmd/dynamic-provider`) calls them: bags through Struct, `__provider` text
 * loaded once per text and configured on first use with the config of the last configure
 * (top-level secrets unwrapped) in the host's own Config class, `__provider` copied into every answer, a create/update error
 * with an `id` reported as "created but failed to initialise", any other error by its message.
 * Each instance loads the package's modules afresh, as each deployment starts a new host.
 * What only the host does (its output, its process) stays with the contract tests.
 */
export class InProcessProvider implements ProviderCalls {
  #config: Record<string, unknown> = {};
  #providers = new Map<string, Methods>();

  private constructor(private readonly handlers: Handlers) {}

  /**
   * Loads the handlers in a fresh module registry (a new host) with the host's environment;
   * `clock`, if given, times their waits and polls, and the api's (its limiter, its backoff).
   */
  static async start(env: Record<string, string> = {}, clock?: Clock): Promise<InProcessProvider> {
    // The host runs with these cleared (see ProviderHost.start); the test's env is its own copy.
    Object.assign(process.env, { HOSTING_API_URL: "", HOSTING_TOKEN: "", ...env });
    let handlers: Handlers | undefined;
    await jest.isolateModulesAsync(async () => {
      handlers = await import("../../src/provider/handlers");
      (await import("../../src/provider/clock")).setClock(clock);
      (await import("../../src/api/shared-limiters")).setSharedLimiterClock(clock);
      // The client loads on first use (connection/pool.ts): here, so it is this host's copy.
      (await import("../../src/connection/pool")).loadClientModule();
    });
    return new InProcessProvider(handlers!);
  }

  async configure(config: Record<string, unknown>): Promise<void> {
    const args = wire(config);
    this.#config = {};
    for (const [k, v] of Object.entries(args)) {
      if (k !== PROVIDER_KEY) this.#config[k] = unwrapRpcSecret(v);
    }
  }

  /** The provider a `__provider` text makes, as the host's `requireFromString(text).handler()`. */
  async #provider(props: Props): Promise<Methods> {
    const text = props[PROVIDER_KEY];
    if (typeof text !== "string") throw new Error(`no ${PROVIDER_KEY} text in the properties`);
    let p = this.#providers.get(text);
    if (!p) {
      const mod = { exports: {} as { handler?: () => Methods } };
      const load = (id: string) => {
        if (id !== "pulumi-hosting") throw new Error(`in-process provider cannot load ${id}`);
        return { providerHandlers: this.handlers.providerHandlers };
      };
      new Function("exports", "require", "module", text)(mod.exports, load, mod);
      p = mod.exports.handler!();
      this.#providers.set(text, p);
      // The host's own Config: `get` by key, and the whole map (`rawConfig`) for misspelt keys.
      await p.configure({ config: new Config(this.#config, getProject()) });
    }
    return p;
  }

  async check(_urn: string, olds: Props, news: Props) {
    [olds, news] = [wire(olds), wire(news)];
    const p = await this.#provider(news[PROVIDER_KEY] === UNKNOWN ? olds : news);
    const result = await plain(p.check(olds, news));
    const inputs = { ...(result.inputs ?? news), [PROVIDER_KEY]: news[PROVIDER_KEY] };
    return {
      inputs: wire(inputs),
      failures: (result.failures ?? []).map((f) => ({ property: f.property, reason: f.reason })),
    };
  }

  async diff(id: string, _urn: string, olds: Props, news: Props) {
    [olds, news] = [wire(olds), wire(news)];
    const p = await this.#provider(news[PROVIDER_KEY] === UNKNOWN ? olds : news);
    const r = await plain(p.diff(id, olds, news));
    return {
      changes: r.changes === true ? true : r.changes === false ? false : undefined,
      replaces: r.replaces ?? [],
      deleteBeforeReplace: r.deleteBeforeReplace ?? false,
    };
  }

  async create(_urn: string, props: Props) {
    props = wire(props);
    const p = await this.#provider(props);
    const r = await initFailing(p.create(props));
    return { id: r.id, properties: withProvider(r.outs, props) };
  }

  async read(id: string, _urn: string, props: Props, _inputs: Props = {}) {
    props = wire(props);
    const p = await this.#provider(props);
    const r = await plain(p.read(id, props));
    return {
      id: r.id ?? "",
      properties: withProvider(r.props, props),
      inputs: r.inputs ? withProvider(r.inputs, props) : undefined,
    };
  }

  async update(id: string, _urn: string, olds: Props, news: Props) {
    [olds, news] = [wire(olds), wire(news)];
    const p = await this.#provider(news);
    const r = await initFailing(p.update(id, olds, news));
    return withProvider(r.outs, news);
  }

  async delete(id: string, _urn: string, props: Props) {
    props = wire(props);
    await plain((await this.#provider(props)).delete(id, props));
  }

  async stop(): Promise<void> {
    this.#providers.clear();
    await this.handlers.closeProviderClients();
  }
}

const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

const withProvider = (result: Props | undefined, props: Props) =>
  wire({ ...result, [PROVIDER_KEY]: props[PROVIDER_KEY] });

/** An error as the gRPC client sees it: its message only. */
async function plain<T>(p: Promise<T>): Promise<T> {
  try {
    return await p;
  } catch (e) {
    throw new Error((e as Error).message);
  }
}

/** As {@link plain}, with "created but failed to initialise" (an error with an id) unpacked. */
async function initFailing<T>(p: Promise<T>): Promise<T> {
  try {
    return await p;
  } catch (e) {
    const src = e as Error & { id?: string; properties?: Props; reasons?: string[] };
    const err = new Error(src.message) as Error & { initFailure?: InitFailure };
    if (src.id) {
      err.initFailure = {
        message: src.message,
        id: src.id,
        properties: wire(src.properties),
        reasons: src.reasons ?? [],
      };
    }
    throw err;
  }
}
