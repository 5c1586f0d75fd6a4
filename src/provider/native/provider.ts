import * as pulumi from "@pulumi/pulumi";
import type * as provider from "@pulumi/pulumi/provider";
import { pulumiConfigVariable, SETTINGS, stackConfig, useClientsOf } from "../../connection";
import * as api from "../..";
import { resourceDeclarations } from "../declarations";
import { fieldLists } from "../fields";
import { connectionOf, nativeHandlers, type HeldConnection } from "../handlers";
import { ResourceInitError } from "../errors";
import type { ResourceKind } from "../resource-kind";
import { importRead } from "./import-read";
import { PACKAGE } from "./schema-types";
import { forEngine, plain, secretKeys } from "./wire-values";
import { URN_INPUT } from "../urn-input";

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

/** The data sources by name (getX), as invokes `hosting:index:getX`. */
const dataSources = Object.fromEntries(
  Object.entries(api).filter(
    ([k, v]) => /^get[A-Z]\w*$/.test(k) && !k.endsWith("Output") && typeof v === "function",
  ),
) as Record<string, (args: Props) => Promise<unknown>>;

/** A data source's answer for the engine: Outputs (secrets) resolved, lists under `items`. */
async function resolved(v: unknown): Promise<unknown> {
  if (pulumi.Output.isInstance(v)) {
    const o = v as unknown as { promise(): Promise<unknown>; isSecret: Promise<boolean> };
    const value = await resolved(await o.promise());
    return (await o.isSecret) ? { ...(forEngine({ v: value }, ["v"]).v as Props) } : value;
  }
  if (Array.isArray(v)) return Promise.all(v.map(resolved));
  if (v === null || typeof v !== "object") return v;
  const out: Props = {};
  for (const [k, x] of Object.entries(v)) if (x !== undefined) out[k] = await resolved(x);
  return out;
}

/** The schema written at build (scripts/package-schema.js); the plugin's bundle holds it. */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const schema = (): unknown => require("../../../plugin/schema.json");

/**
 * The native provider: the dynamic resources' handlers behind Pulumi's provider protocol, with
 * types `hosting:index:<Kind>`, invokes for the data sources, and one connection from its own
 * config (an explicit provider's arguments, else the stack's `hosting:*`).
 */
export class HostingProvider implements provider.Provider {
  readonly version: string;
  readonly #held: HeldConnection;

  constructor(version: string) {
    this.version = version;
    this.#held = { conn: connectionOf(stackConfig(settingsFrom(pulumiConfigEnv()))) };
    useClientsOf((account) => this.#held.conn.client(account));
  }

  /** Configure's values: replaces the connection when the engine sent any. */
  configureWith(entries: Record<string, unknown>): void {
    const settings = settingsFrom(entries);
    if (Object.keys(settings).length > 0) this.#held.conn = connectionOf(stackConfig(settings));
  }

  async getSchema(): Promise<string> {
    return JSON.stringify(schema());
  }

  #methods(urn: string) {
    const kind = kindOf(urn);
    const secrets = fieldLists(resourceDeclarations[kind].fields).secrets;
    return { kind, m: nativeHandlers(kind, this.#held), secrets };
  }

  async check(urn: string, olds: Props, news: Props): Promise<provider.CheckResult> {
    const { m, secrets } = this.#methods(urn);
    const result = await m.check(plain(olds ?? {}) as Props, plain(news) as Props);
    return {
      inputs: forEngine(result.inputs, [...secrets, ...secretKeys(news)]),
      failures: result.failures ?? [],
    };
  }

  async diff(id: string, urn: string, olds: Props, news: Props): Promise<provider.DiffResult> {
    const { m } = this.#methods(urn);
    const r = await m.diff(id, plain(olds) as Props, plain(news) as Props);
    return { changes: r.changes, replaces: r.replaces, deleteBeforeReplace: r.deleteBeforeReplace };
  }

  async create(urn: string, inputs: Props): Promise<provider.CreateResult> {
    const { kind, m, secrets } = this.#methods(urn);
    const hide = [...secrets, ...secretKeys(inputs)];
    try {
      // The engine names the URN here: the App's create key needs it (urn-input.ts).
      const given = plain(inputs) as Props;
      const r = await m.create(kind === "App" ? { ...given, [URN_INPUT]: urn } : given);
      return { id: r.id, outs: forEngine(r.outs ?? {}, hide) };
    } catch (err) {
      // Created but not settled: the id and the state go to the engine, which keeps them.
      if (err instanceof ResourceInitError) {
        const { __provider: _, ...props } = err.properties;
        Object.assign(err, { properties: forEngine(props, hide) });
      }
      throw err;
    }
  }

  async read(id: string, urn: string, props?: Props): Promise<provider.ReadResult> {
    const { kind, m, secrets } = this.#methods(urn);
    const state = plain(props ?? {}) as Props;
    const hide = [...secrets, ...secretKeys(props)];
    if (Object.keys(state).length === 0) {
      // An import: the id alone.
      const client = this.#held.conn.client(undefined);
      const found = await importRead(kind, client, id);
      if (!found) return { id: "", props: {} };
      return { id: found.id, props: forEngine(found.props, hide), inputs: found.inputs };
    }
    const r = await m.read(id, state);
    if (r.id === undefined) return { id: "", props: {} };
    return {
      id: r.id,
      props: forEngine(r.props ?? {}, hide),
      inputs: r.inputs === undefined ? undefined : forEngine(r.inputs, hide),
    };
  }

  async update(id: string, urn: string, olds: Props, news: Props): Promise<provider.UpdateResult> {
    const { m, secrets } = this.#methods(urn);
    const r = await m.update(id, plain(olds) as Props, plain(news) as Props);
    return {
      outs: forEngine(r.outs ?? {}, [...secrets, ...secretKeys(news), ...secretKeys(olds)]),
    };
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
