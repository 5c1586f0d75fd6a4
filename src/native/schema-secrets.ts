import { UNKNOWN } from "../inputs";
import type { ObjectTypeSpec, PropertySpec } from "./schema-types";
import { isSecret, secret } from "./wire-values";

/*
 * What goes back to the engine sealed, read from the package schema's `secret` marks at any
 * depth (an explicit provider's `accounts.<name>.token` as much as an App's `env`), not from a
 * list kept by hand. The engine seals only what a provider hands back marked: an SDK marks the
 * top-level secret arguments it sends, never a nested one, so a mark the plugin leaves off is a
 * value in plain text in the state.
 */

type Props = Record<string, unknown>;

/** The schema's object types, by token (`hosting:index:Account`). */
export type SchemaTypes = Readonly<Record<string, ObjectTypeSpec>>;

const LOCAL_REF = "#/types/";

function objectType(spec: PropertySpec, types: SchemaTypes): ObjectTypeSpec | undefined {
  const ref = spec.$ref;
  if (ref === undefined || !ref.startsWith(LOCAL_REF)) return undefined;
  const t = types[ref.slice(LOCAL_REF.length)];
  // A type the schema does not define would leave its secrets unsealed: fail, never leak.
  if (!t) throw new Error(`the package schema has no type ${ref}`);
  return t;
}

/** Whether a value of this type may hold something the schema marks secret, at any depth. */
function mayHoldSecret(spec: PropertySpec, types: SchemaTypes, seen = new Set<string>()): boolean {
  if (spec.secret) return true;
  if (spec.items) return mayHoldSecret(spec.items, types, seen);
  if (spec.additionalProperties) return mayHoldSecret(spec.additionalProperties, types, seen);
  const t = objectType(spec, types);
  if (!t || seen.has(spec.$ref ?? "")) return false;
  seen.add(spec.$ref ?? "");
  return Object.values(t.properties).some((p) => mayHoldSecret(p, types, seen));
}

/** `value` with what `spec` marks secret sealed; JSON-clean (no `undefined`). */
function sealed(value: unknown, spec: PropertySpec, types: SchemaTypes): unknown {
  if (value === undefined || value === null || value === UNKNOWN || isSecret(value)) return value;
  if (spec.secret) return secret(value);
  if (!mayHoldSecret(spec, types)) return value;
  // SDKs send a provider's structured argument as JSON text: its secret part is in the text.
  if (typeof value === "string") return secret(value);
  if (Array.isArray(value)) {
    // A list where the schema has none (a wrong value) may hold anything: sealed whole.
    return spec.items ? value.map((v) => sealed(v, spec.items ?? {}, types)) : secret(value);
  }
  if (typeof value !== "object") return value;
  const t = objectType(spec, types);
  const out: Props = {};
  for (const [k, v] of Object.entries(value as Props)) {
    if (v === undefined) continue;
    const inner = t ? t.properties[k] : spec.additionalProperties;
    // A key the type does not declare, beside secrets (a misspelt `token`): sealed.
    out[k] = inner ? sealed(v, inner, types) : secret(v);
  }
  return out;
}

/**
 * Seals a property bag by the schema: `properties` (a resource's inputs or outputs, or the
 * provider's config) and `types` say what is secret; `alsoSecret` names keys sealed whole (what
 * was secret going in). Keys the schema does not name (`__urn`, the engine's `version`) and
 * `undefined` values are passed as they are and left out.
 */
export function sealBySchema(
  props: Props,
  properties: Readonly<Record<string, PropertySpec>>,
  types: SchemaTypes,
  alsoSecret: readonly string[] = [],
): Props {
  const out: Props = {};
  for (const [k, v] of Object.entries(props)) {
    if (v === undefined) continue;
    const clean = JSON.parse(JSON.stringify(v)) as unknown;
    const spec = properties[k];
    if (alsoSecret.includes(k) && !isSecret(clean)) out[k] = secret(clean);
    else out[k] = spec ? sealed(clean, spec, types) : clean;
  }
  return out;
}
