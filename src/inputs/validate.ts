import type { z } from "zod";
import { formatPath, HostingInputError } from "../api/wire";

/** Pulumi's marker for a value not known until apply (preview of a dependent resource). */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

export interface Failure {
  property: string;
  reason: string;
}

/**
 * Validates inputs with a zod schema, skipping properties whose value is still unknown. Returns
 * the normalised inputs (unknowns kept as they were) or failures that name the property.
 */
export function validateInputs<S extends z.ZodObject>(
  schema: S,
  raw: Record<string, unknown>,
): { inputs: Record<string, unknown>; failures: Failure[] } {
  const known: Record<string, unknown> = {};
  const unknown: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(raw)) {
    if (k === "__provider") continue;
    (v === UNKNOWN ? unknown : known)[k] = v;
  }
  const result = relaxedOf(schema, Object.keys(unknown)).safeParse(known);
  if (!result.success) {
    return {
      inputs: raw,
      failures: result.error.issues.map((i) => ({
        property: formatPath(i.path) || "(inputs)",
        reason: i.message,
      })),
    };
  }
  return { inputs: { ...(result.data as Record<string, unknown>), ...unknown }, failures: [] };
}

/**
 * The schema with the unknown properties made optional, made once per set of them: zod compiles
 * a schema on its first parse, and a schema made per check was most of the check's cost.
 */
const relaxedSchemas = new WeakMap<z.ZodObject, Map<string, z.ZodObject>>();

function relaxedOf(schema: z.ZodObject, unknownKeys: string[]): z.ZodObject {
  if (unknownKeys.length === 0) return schema;
  const key = [...unknownKeys].sort().join("\u0000");
  let made = relaxedSchemas.get(schema);
  if (!made) relaxedSchemas.set(schema, (made = new Map()));
  let relaxed = made.get(key);
  if (!relaxed) {
    relaxed = schema.partial(Object.fromEntries(unknownKeys.map((k) => [k, true])) as never);
    made.set(key, relaxed);
  }
  return relaxed;
}

/** The same check for data-source arguments, thrown as an error before any request. */
export function parseArgs<S extends z.ZodType>(fn: string, schema: S, args: unknown): z.infer<S> {
  const result = schema.safeParse(args ?? {});
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const property = formatPath(issue.path) || "(arguments)";
  throw new HostingInputError(property, `${fn}: ${property}: ${issue.message}`);
}
