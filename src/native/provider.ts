import * as pulumi from "@pulumi/pulumi";
import type * as provider from "@pulumi/pulumi/provider";
import { pulumiConfigVariable, SETTINGS, stackConfig, useClientsOf } from "../connection";
import { calls } from "../data";
import { UNKNOWN } from "../inputs";
import {
  connectionOf,
  nativeHandlers,
  NAMING_INPUT,
  ResourceInitError,
  resourceDeclarations,
  URN_INPUT,
  withOwner,
  type HeldConnection,
  type Naming,
  type ResourceKind,
} from "../provider";
import type { Tell } from "./engine-log";
import { ImportChecks, importReaders, notFound, placeholderFailures } from "./import-read";
import type { packageSchema } from "./package-schema";
import { sealBySchema } from "./schema-secrets";
import { PACKAGE, tokenOf } from "./schema-types";
import { plain, secret, secretKeys } from "./wire-values";

type Props = Record<string, unknown>;

const PREFIX = `${PACKAGE}:index:`;

/** The resource kind of a URN (`…::hosting:index:App::name`, a parent type before `$`). */
function kindOf(urn: string): ResourceKind {
  const type = urn.split("::")[2]?.split("$").pop() ?? "";
  const kind = type.slice(PREFIX.length);
  if (!type.startsWith(PREFIX) || !Object.hasOwn(resourceDeclarations, kind)) {
    throw new Error(`pulumi-hosting has no resource type ${type}`);
  }
  return kind as ResourceKind;
}

/**
 * Stack settings from the engine's view of this provider's config: `hosting:config:apiUrl` or
 * `hosting:apiUrl` keys (PULUMI_CONFIG, Configure's variables) or bare names (Configure's args).
 */
export function settingsFrom(entries: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(entries)) {
    const name = key.replace(/^hosting:(config:)?/, "");
    if (Object.hasOwn(SETTINGS, `hosting:${name}`) && value !== undefined) {
      out[`hosting:${name}`] = value;
    }
  }
  return out;
}

function pulumiConfigEnv(): Record<string, unknown> {
  try {
    return JSON.parse(pulumiConfigVariable() ?? "{}") as Record<string, unknown>;
  } catch {
    return {};
  }
}

/**
 * The data sources by name (getX), as invokes `hosting:index:getX`: the table of what each one
 * does (src/data/calls.ts), less the actions (no `get`), which the package offers to scripts.
 */
const dataSources = Object.fromEntries(
  Object.entries(calls).filter(([k]) => /^get[A-Z]\w*$/.test(k)),
) as Record<string, (args: Props) => Promise<unknown>>;

/** A data source's answer for the engine: Outputs (secrets) resolved, lists under `items`. */
async function resolved(v: unknown): Promise<unknown> {
  if (pulumi.Output.isInstance(v)) {
    const o = v as unknown as { promise(): Promise<unknown>; isSecret: Promise<boolean> };
    const value = await resolved(await o.promise());
    return (await o.isSecret) ? secret(JSON.parse(JSON.stringify(value ?? null))) : value;
  }
  if (Array.isArray(v)) return Promise.all(v.map(resolved));
  if (v === null || typeof v !== "object") return v;
  const out: Props = {};
  for (const [k, x] of Object.entries(v)) if (x !== undefined) out[k] = await resolved(x);
  return out;
}

/**
 * The schema written at build (scripts/plugin-schema.js), which the plugin's bundle holds: what
 * it serves, and what is secret in its resources, provider config and types.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const SCHEMA = require("../../plugin/schema.json") as ReturnType<typeof packageSchema>;

/** Sealing by the schema of a kind's inputs and outputs; `alsoSecret`: keys secret going in. */
function sealersOf(kind: ResourceKind) {
  const spec = SCHEMA.resources[tokenOf(kind)];
  const by =
    (properties: typeof spec.properties) =>
    (props: Props, alsoSecret: readonly string[] = []) =>
      sealBySchema(props, properties, SCHEMA.types, alsoSecret);
  return { inputs: by(spec.inputProperties), outputs: by(spec.properties) };
}

/** An explicit or default provider's own inputs, as CheckConfig answers them: secrets sealed. */
export function checkedConfig(news: Props): Props {
  return sealBySchema(news, SCHEMA.provider.inputProperties, SCHEMA.types);
}

/** What a read answers for an object that is not there (main.ts sends it with no properties). */
const ABSENT: provider.ReadResult = { id: "", props: {} };

/**
 * The native provider: the dynamic resources' handlers behind Pulumi's provider protocol, with
 * types `hosting:index:<Kind>`, invokes for the data sources, and one connection from its own
 * config (an explicit provider's arguments, else the stack's `hosting:*`).
 */
export class HostingProvider implements provider.Provider {
  readonly version: string;
  readonly #held: HeldConnection;
  readonly #imports = new ImportChecks();
  readonly #tell: Tell;

  /** `tell`: how a line reaches the user (engine-log.ts). */
  constructor(version: string, tell: Tell) {
    this.version = version;
    this.#tell = tell;
    this.#held = { conn: connectionOf(stackConfig(settingsFrom(pulumiConfigEnv()))) };
    useClientsOf((account) => this.#held.conn.client(account));
  }

  /** `pulumi:autonaming`'s proposals by URN, from the engine's CheckRequest (main.ts). */
  readonly #proposed = new Map<string, NonNullable<Naming["proposed"]>>();

  /** Keeps the engine's proposed name for the next check of `urn`. */
  proposeName(urn: string, proposed: NonNullable<Naming["proposed"]>): void {
    this.#proposed.set(urn, proposed);
  }

  /**
   * DiffConfig: a config that moves an account (the default one or a named one present before
   * and after) to another account replaces the provider, and with it every resource it holds
   * (the engine deletes the old ones through the old provider, which can still reach them). A
   * rotated token, an account added or removed, or a value not known yet (preview) moves nothing.
   */
  async diffConfig(olds: Props, news: Props): Promise<{ replaces: string[] }> {
    if (JSON.stringify(news).includes(UNKNOWN)) return { replaces: [] };
    const conn = (p: Props) => connectionOf(stackConfig(settingsFrom(plain(p) as Props)));
    const [before, after] = [conn(olds), conn(news)];
    const replaces: string[] = [];
    for (const name of [undefined, ...before.accountNames()]) {
      const [a, b] = [before.owner(name), after.owner(name)];
      if (a && b && a.account !== b.account) {
        replaces.push(name === undefined ? "token" : `accounts.${name}.token`);
      }
    }
    return { replaces };
  }

  /** Configure's values: replaces the connection when the engine sent any. */
  configureWith(entries: Record<string, unknown>): void {
    const settings = settingsFrom(entries);
    if (Object.keys(settings).length > 0) this.#held.conn = connectionOf(stackConfig(settings));
  }

  async getSchema(): Promise<string> {
    return JSON.stringify(SCHEMA);
  }

  #methods(urn: string) {
    const kind = kindOf(urn);
    return { kind, m: nativeHandlers(kind, this.#held), ...sealersOf(kind) };
  }

  async check(urn: string, olds: Props, news: Props): Promise<provider.CheckResult> {
    const { kind, m, inputs } = this.#methods(urn);
    const [was, given] = [plain(olds ?? {}) as Props, plain(news) as Props];
    const hide = secretKeys(news);
    const own = this.#imports.failuresOfOwnCheck(kind, urn, was, given);
    if (own) return { inputs: inputs(given, hide), failures: own };
    // A placeholder an import wrote, left in the program: named before anything reads it.
    const left = placeholderFailures(kind, given);
    if (left.length > 0) return { inputs: inputs(given, hide), failures: left };
    // The engine names the URN and `pulumi:autonaming`'s proposal: an App without `name` is
    // named from them (auto-name.ts).
    const proposed = this.#proposed.get(urn);
    this.#proposed.delete(urn);
    const result = await m.check(
      was,
      kind === "App" ? { ...given, [URN_INPUT]: urn, [NAMING_INPUT]: proposed } : given,
    );
    const { [URN_INPUT]: _, ...checked } = result.inputs ?? {};
    return { inputs: inputs(checked, hide), failures: result.failures ?? [] };
  }

  async diff(id: string, urn: string, olds: Props, news: Props): Promise<provider.DiffResult> {
    const { m } = this.#methods(urn);
    const r = await m.diff(id, plain(olds) as Props, plain(news) as Props);
    return { changes: r.changes, replaces: r.replaces, deleteBeforeReplace: r.deleteBeforeReplace };
  }

  async create(urn: string, given: Props): Promise<provider.CreateResult> {
    const { kind, m, outputs } = this.#methods(urn);
    const hide = secretKeys(given);
    try {
      // The engine names the URN here: the App's create key needs it (urn-input.ts).
      const inputs = plain(given) as Props;
      const r = await m.create(kind === "App" ? { ...inputs, [URN_INPUT]: urn } : inputs);
      return { id: r.id, outs: outputs(r.outs ?? {}, hide) };
    } catch (err) {
      // Created but not settled: the id and the state go to the engine, which keeps them.
      if (err instanceof ResourceInitError) {
        const { __provider: _, ...props } = err.properties;
        Object.assign(err, { properties: outputs(props, hide) });
      }
      throw err;
    }
  }

  async read(id: string, urn: string, props?: Props): Promise<provider.ReadResult> {
    const { kind, m, inputs, outputs } = this.#methods(urn);
    const state = plain(props ?? {}) as Props;
    // An import: the id alone.
    if (Object.keys(state).length === 0) return this.#importRead(kind, urn, id);
    const hide = secretKeys(props);
    const r = await m.read(id, state);
    if (r.id === undefined) return ABSENT;
    return {
      id: r.id,
      props: outputs(r.props ?? {}, hide),
      inputs: r.inputs === undefined ? undefined : inputs(r.inputs, hide),
    };
  }

  async #importRead(kind: ResourceKind, urn: string, id: string): Promise<provider.ReadResult> {
    const reader = importReaders[kind];
    if ("refused" in reader) {
      await this.#tell(urn, `${reader.refused}.`);
      return ABSENT;
    }
    const client = this.#held.conn.client(undefined);
    const found = await reader.find(client, id);
    if (!found) {
      await this.#tell(urn, notFound(reader.what, id, client.apiUrl));
      return ABSENT;
    }
    this.#imports.remember(urn, found.inputs);
    const { inputs, outputs } = sealersOf(kind);
    // Found under the default connection: that account is the owner from now on (ownership.ts).
    const props = withOwner(found.props, {}, this.#held.conn.owner(undefined));
    return { id, props: outputs(props), inputs: inputs(found.inputs) };
  }

  async update(id: string, urn: string, olds: Props, news: Props): Promise<provider.UpdateResult> {
    const { m, outputs } = this.#methods(urn);
    const r = await m.update(id, plain(olds) as Props, plain(news) as Props);
    return { outs: outputs(r.outs ?? {}, [...secretKeys(news), ...secretKeys(olds)]) };
  }

  async delete(id: string, urn: string, props: Props): Promise<void> {
    const { m } = this.#methods(urn);
    await m.delete(id, plain(props) as Props);
  }

  async invoke(token: string, inputs: Props): Promise<provider.InvokeResult> {
    const name = token.startsWith(PREFIX) ? token.slice(PREFIX.length) : "";
    const fn = dataSources[name];
    if (!fn) throw new Error(`pulumi-hosting has no function ${token}`);
    const result = await resolved(await fn(plain(inputs) as Props));
    return { outputs: Array.isArray(result) ? { items: result } : result };
  }
}
