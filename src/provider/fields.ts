/*
 * One declaration per resource field. The check schema's keys, the replace/compare/platform-default
 * lists, the output keys a resource class registers, the read mapping and the reference pages all
 * derive from it. No zod here: resource classes load this module, and a program that only
 * declares resources must not load zod (the rules live in each resource's schema.ts, keyed by the
 * same names and held equal at compile time with {@link SameKeys}).
 */
import { camelKey } from "../base";

/** How a service value maps into an output: a plain value, an object of known fields, a list. */
export type Shape = "value" | { readonly [wireKey: string]: Shape } | readonly [Shape];

/** One field of a resource. */
export interface Field {
  /** Reference text (Markdown). */
  readonly doc: string;
  /** What the output holds, when it says more than `doc` (e.g. the value the platform reports). */
  readonly outputDoc?: string;
  /** The type as a program sees it, for the reference pages. */
  readonly type: string;
  /**
   * The TypeScript type of the Args property (inside `pulumi.Input<…>`), when `type` does not
   * give it (an object with its own interface, beside the resource class).
   */
  readonly argType?: string;
  /** The TypeScript type of the output, when `type` does not give it (as `argType`). */
  readonly outputType?: string;
  /** Why it is deprecated and what to use instead: the hover text's `@deprecated`. */
  readonly deprecated?: string;
  /**
   * An input the program sets (`required` or `optional`), or one `check` computes (`computed`:
   * in the check schema, not in the Args). Absent: an output only.
   */
  readonly input?: "required" | "optional" | "computed";
  /**
   * A text input's check rule, as data (this module loads no zod): the message when empty is
   * refused, the longest text. The kind's schema.ts derives the rule (`textInput`) unless it
   * writes one.
   */
  readonly text?: { readonly empty?: string; readonly max?: number };
  /** Changing it replaces the resource. */
  readonly replaces?: boolean;
  /** Not compared by diff (e.g. a path whose content is compared through a hash). */
  readonly notCompared?: boolean;
  /**
   * Check gives it a value when the program leaves it unset (an App's generated name): with
   * `wire`, it is always sent. AppManifest is written from the declaration (the api room cannot
   * import the derived `Manifest`), and held to it at compile time.
   */
  readonly checkFills?: boolean;
  /** The platform fills it in when unset: unset in the program means no opinion. */
  readonly platformDefault?: boolean;
  /** The documented value unset stands for: setting it is no change (e.g. a timeout's 300). */
  readonly default?: number | boolean | readonly never[];
  /** Stored as a secret. */
  readonly secret?: boolean;
  /**
   * The key the input travels under in the app manifest (`hosting.json`, snake_case). Set means
   * the setting is sent; the manifest's own type must list exactly these keys (compile-checked).
   */
  readonly wire?: string;
  /**
   * With `wire`: the words of a refusal about it, when the client's table (api/refusals.ts) has
   * none; the wire name as a word (`_` or a space between its parts) when not given.
   */
  readonly refusalWords?: RegExp;
  /** The documented service field the output is read from (dotted path), e.g. `user_id`. */
  readonly from?: string;
  /**
   * The known fields of an object or list value: with `from`, nothing else is read from the
   * service; of an input, nothing else is part of what it decides (e.g. a create's key).
   */
  readonly shape?: Shape;
  /**
   * Kept as recorded in state and never read from the service (an output older versions
   * filled in): a refresh leaves it as it was.
   */
  readonly kept?: boolean;
}

export type Fields = Readonly<Record<string, Field>>;

type KeysWhere<F extends Fields, C> = {
  [K in keyof F]: F[K] extends C ? K : never;
}[keyof F] &
  string;

/** Fields the check schema holds (set by the program or computed by check). */
export type SchemaKeys<F extends Fields> = KeysWhere<F, { input: string }>;
/** Fields a program sets (the Args interface, less `account`). */
export type ArgKeys<F extends Fields> = KeysWhere<F, { input: "required" | "optional" }>;

/** The wire keys a declaration sends (its fields' `wire`). */
export type WireKeys<F extends Fields> = {
  [K in keyof F]: F[K] extends { wire: infer W extends string } ? W : never;
}[keyof F];

/** The top-level service fields a declaration reads (the first part of each `from`). */
export type FromKeys<F extends Fields> = {
  [K in keyof F]: F[K] extends { from: `${infer Top}.${string}` }
    ? Top
    : F[K] extends { from: infer W extends string }
      ? W
      : never;
}[keyof F];

/** true when A and B are the same set of names. */
export type SameKeys<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

/** The `account` input every resource takes; checked by handlers.ts, not by each schema. */
export const accountField: Field = {
  doc:
    "A named account from stack config (`hosting:accounts.<name>.apiUrl` / `.token`) or the " +
    "environment (`HOSTING_<NAME>_API_URL` / `HOSTING_<NAME>_TOKEN`); unset means the default " +
    "`hosting:apiUrl` / `hosting:token`. Only the name is stored in state. Changing it replaces " +
    "the resource, unless both names act for the same account (the token's subject).",
  type: "string",
  input: "optional",
};

const names = (f: Fields, test: (x: Field) => boolean | undefined): string[] =>
  Object.keys(f).filter((k) => test(f[k]));

/** The lists a handler needs, derived from the declaration. */
export function fieldLists(f: Fields) {
  return {
    schemaKeys: names(f, (x) => x.input !== undefined),
    replaceOnChange: names(f, (x) => x.replaces),
    notCompared: names(f, (x) => x.notCompared),
    platformDefaults: names(f, (x) => x.platformDefault),
    documentedDefaults: Object.fromEntries(
      names(f, (x) => x.default !== undefined).map((k) => [k, f[k].default]),
    ),
    /** Inputs check computes (e.g. a hash): unknown while what they come from is. */
    computed: names(f, (x) => x.input === "computed"),
    secrets: names(f, (x) => x.secret),
    /** Inputs the service reports back: a refresh brings their drift into the inputs. */
    live: names(f, (x) => x.input !== undefined && x.from !== undefined),
    /** Inputs sent with a `wire` key (the App's manifest). */
    wired: names(f, (x) => x.wire !== undefined),
  };
}

/**
 * The properties a resource class registers: the program's arguments, and `undefined` for every
 * other declared field (a dynamic resource only gets outputs for the keys it registers). Keys a
 * program should not set (outputs, computed inputs) are registered empty whatever it passed;
 * unknown ones pass, so check names them.
 */
export function registeredProps(f: Fields, args: object): Record<string, unknown> {
  const props: Record<string, unknown> = { account: undefined, ...args };
  for (const key of Object.keys(f)) {
    const arg = f[key].input === "required" || f[key].input === "optional";
    if (!arg || !(key in props)) props[key] = undefined;
  }
  return props;
}

/** The wire form of inputs: each set input with a `wire` key, under that key. */
export function wireOf(f: Fields, inputs: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(f)) {
    const wire = f[key].wire;
    if (wire !== undefined && inputs[key] !== undefined) out[wire] = inputs[key];
  }
  return out;
}

/** An input's value as far as its declared `shape` goes (its known fields); without one, whole. */
export function knownPart(value: unknown, shape: Shape | undefined): unknown {
  if (shape === undefined || shape === "value" || value === null || typeof value !== "object") {
    return value;
  }
  if (Array.isArray(shape)) {
    return Array.isArray(value) ? value.map((v) => knownPart(v, shape[0])) : value;
  }
  const src = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(shape)) {
    if (Object.prototype.hasOwnProperty.call(src, key)) {
      out[key] = knownPart(src[key], (shape as Record<string, Shape>)[key]);
    }
  }
  return out;
}

const pathOf = (from: string) => from.split(".");

/** Reads a value by a declared shape: known fields only, as deep as the shape, no further. */
function byShape(value: unknown, shape: Shape | undefined): unknown {
  if (shape === undefined || shape === "value") {
    // A plain value: an object or list where none is declared is not copied.
    return value !== null && typeof value === "object" ? undefined : value;
  }
  if (value === null || typeof value !== "object") return undefined;
  if (Array.isArray(shape)) {
    return Array.isArray(value) ? value.map((v) => byShape(v, shape[0])) : undefined;
  }
  const src = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const wire of Object.keys(shape)) {
    if (!Object.prototype.hasOwnProperty.call(src, wire)) continue;
    const v = byShape(src[wire], (shape as Record<string, Shape>)[wire]);
    if (v !== undefined) out[camelKey(wire)] = v;
  }
  return out;
}

/**
 * The outputs a service reply gives: each declared `from` field, by name and shape. Nothing
 * else of the reply is read, so no service field can overwrite an input or `account`.
 */
export function outputsFrom(f: Fields, reply: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(f)) {
    const v = outputFrom(f[key], reply);
    if (v !== undefined) out[key] = v;
  }
  return out;
}

/** One field's output from a reply (see outputsFrom): undefined when it has no `from` or none. */
export function outputFrom(field: Field, reply: unknown): unknown {
  if (field.from === undefined) return undefined;
  let v: unknown = reply;
  for (const part of pathOf(field.from)) {
    if (v === null || typeof v !== "object" || !Object.prototype.hasOwnProperty.call(v, part)) {
      return undefined;
    }
    v = (v as Record<string, unknown>)[part];
  }
  return v === undefined ? undefined : byShape(v, field.shape);
}

/** The declared keys of a state (inputs, `account`, outputs): what a read carries over. */
export function declaredState(f: Fields, state: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of [...Object.keys(f), "account"]) {
    if (state[key] !== undefined) out[key] = state[key];
  }
  return out;
}
