import type { z } from "zod";
import { type HostingClient, HostingInputError, NotFoundError } from "../api/wire";
import { sameValue } from "./stable-json";
import { URN_INPUT } from "./urn-input";
import { UNKNOWN, validateInputs, type Failure } from "../inputs";
import { ResourceInitError } from "./errors";

export type Props = Record<string, unknown>;

/** A resource's validated inputs (what `check` returned). */
export type InputsOf<S extends z.ZodObject> = z.output<S>;
/** A resource's state as the engine hands it back: its inputs plus what create and read added. */
export type StateOf<S extends z.ZodObject> = InputsOf<S> & Props;

/**
 * What each resource type supplies, typed by its input schema; the shared check/diff/lifecycle
 * plumbing is below. Inputs reach `create`, `update` and `prepare` only after `check` passed.
 */
export interface ResourceHandler<S extends z.ZodObject = z.ZodObject> {
  /** Input schema: messages name the property and the fix. */
  schema: S;
  /** Inputs whose change replaces the resource. */
  replaceOnChange: readonly string[];
  /** Inputs not compared by diff (e.g. a path whose content is compared through a hash). */
  notCompared?: readonly string[];
  /** Optional settings the platform fills in when unset: unset in the program means no opinion. */
  platformDefaults?: readonly string[];
  /** Documented values an unset input stands for: setting one of them explicitly is no change. */
  documentedDefaults?: Readonly<Record<string, unknown>>;
  /** Inputs `prepare` computes: unknown (so a preview says what they may change) when it cannot run. */
  computed?: readonly string[];
  /** The inputs `prepare` reads (all of them when unset); it runs only once these are known. */
  prepareReads?: readonly string[];
  deleteBeforeReplace?(news: InputsOf<S>): boolean;
  /**
   * Inputs check fills in before validation (an App's generated name), from the state and what
   * the engine or program sent about the resource's name; may throw HostingInputError.
   */
  fillIn?(news: Props, olds: Props, naming: Naming): Props;
  /** Check-time work on valid inputs (packaging, hashing); may throw HostingInputError. */
  prepare?(inputs: InputsOf<S>, olds: Props): Promise<InputsOf<S>>;
  /** Whether a changed value only re-encodes the old one: recorded by an update, no replacement. */
  equivalent?(key: string, old: unknown, next: unknown): boolean;
  /** Called after every diff, so a handler can track which object each resource holds. */
  diffed?(id: string, olds: StateOf<S>, replaces: readonly string[]): void;
  create(client: HostingClient, inputs: InputsOf<S>): Promise<{ id: string; outs: Props }>;
  /** Returns undefined when the object is gone. */
  read(
    client: HostingClient,
    id: string,
    props: StateOf<S>,
  ): Promise<{ props: Props; inputs: Props } | undefined>;
  /** Changes in place; without it an update only records the new inputs ({@link updatedOutputs}). */
  update?(client: HostingClient, id: string, olds: StateOf<S>, news: InputsOf<S>): Promise<Props>;
  /**
   * Returns "gone" when the object was not there to delete: whether that means it is gone is
   * decided by whose it is (ownership.ts), not here.
   */
  delete(client: HostingClient, id: string, props: StateOf<S>): Promise<"gone" | void>;
}

/** What the engine or the program said about a resource's name. */
export interface Naming {
  /** The resource's URN. */
  urn?: string;
  /** `pulumi:autonaming`'s proposal, as the engine passes it to a provider that takes it. */
  proposed?: { name?: string; mode: "propose" | "enforce" | "disable" };
}

export async function checkWith(
  h: ResourceHandler,
  olds: Props,
  news: Props,
  naming: Naming = {},
): Promise<{ inputs: Props; failures: Failure[] }> {
  let filled = news;
  try {
    filled = h.fillIn ? h.fillIn(news, olds ?? {}, naming) : news;
  } catch (err) {
    if (!(err instanceof HostingInputError)) throw err;
    return { inputs: news, failures: [{ property: err.property, reason: err.message }] };
  }
  const { inputs, failures } = validateInputs(h.schema, filled);
  if (failures.length > 0 || !h.prepare) return { inputs, failures };
  const reads = h.prepareReads ?? Object.keys(inputs);
  if (reads.some((k) => inputs[k] === UNKNOWN)) {
    // What prepare would compute may change: the engine's preview shows it as unknown.
    const unknown = Object.fromEntries((h.computed ?? []).map((k) => [k, UNKNOWN]));
    return { inputs: { ...inputs, ...unknown }, failures };
  }
  try {
    return { inputs: await h.prepare(inputs, olds ?? {}), failures: [] };
  } catch (err) {
    if (err instanceof HostingInputError) {
      return { inputs, failures: [{ property: err.property, reason: err.message }] };
    }
    throw err;
  }
}

export function diffWith(h: ResourceHandler, olds: Props, news: Props) {
  const skip = new Set(["__provider", URN_INPUT, ...(h.notCompared ?? [])]);
  const keys = new Set(
    // `account` is every resource's input, so a removed one (back to the default) is a change.
    [...Object.keys(h.schema.shape), "account", ...Object.keys(news)].filter((k) => !skip.has(k)),
  );
  const defaults = new Set(h.platformDefaults ?? []);
  const documented = h.documentedDefaults ?? {};
  const value = (props: Props, k: string) => props[k] ?? documented[k] ?? null;
  const changed = [...keys]
    .filter((k) => !(news[k] === undefined && defaults.has(k)))
    .filter((k) => news[k] === UNKNOWN || !sameValue(value(olds, k), value(news, k)))
    .sort();
  const replaces = changed.filter(
    (k) => h.replaceOnChange.includes(k) && !h.equivalent?.(k, olds[k], news[k]),
  );
  return {
    changes: changed.length > 0,
    replaces,
    deleteBeforeReplace: replaces.length > 0 && (h.deleteBeforeReplace?.(news) ?? false),
  };
}

/** The inputs held in a resource's outputs (every output bag starts from its inputs). */
export function inputsFrom(schema: z.ZodObject, props: Props): Props {
  const inputs: Props = {};
  for (const key of Object.keys(schema.shape)) {
    if (props[key] !== undefined) inputs[key] = props[key];
  }
  return inputs;
}

/**
 * The outputs of an in-place update: the old outputs with the new inputs over them, less every
 * input the program no longer sets. An input left in (a removed `activeTimeoutSeconds`, `account`
 * back to the default) would show as a change in every later diff. Settings the platform fills
 * in when unset keep the value it reported.
 */
export function updatedOutputs(
  h: Pick<ResourceHandler, "schema" | "platformDefaults">,
  olds: Props,
  news: Props,
): Props {
  const out: Props = { ...olds };
  for (const key of [...Object.keys(h.schema.shape), "account"]) {
    if (!(h.platformDefaults ?? []).includes(key)) delete out[key];
  }
  return Object.assign(out, news);
}

/** Runs a delete; "gone" when the service answered 404 (the object was not there). */
export async function ignoreNotFound(p: Promise<unknown>): Promise<"gone" | undefined> {
  try {
    await p;
    return undefined;
  } catch (err) {
    if (!(err instanceof NotFoundError)) throw err;
    return "gone";
  }
}

/** The advice on an object a failed wait keeps in the stack. */
export const KEPT_TO_WAIT = "it is kept in the stack: run `pulumi up` again to wait more";

/**
 * Waits on an object that already exists. A failed wait (a timeout, a look that keeps failing)
 * must not lose it: it is thrown as "created but failed to initialise" with `outs`.
 */
export async function waitKept<T>(
  wait: () => Promise<T>,
  failed: string,
  id: string,
  outs: Props,
): Promise<T> {
  try {
    return await wait();
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    throw new ResourceInitError(`${failed} (${why}); ${KEPT_TO_WAIT}`, id, outs, [why], err);
  }
}
