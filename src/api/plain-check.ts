import type { z } from "zod";

/*
 * A plain-loop check for the simple response shapes (loose objects of strings, numbers,
 * booleans, enums, arrays, nullable and optional fields). A 10,000-app list is checked several
 * times faster than by zod's general machinery. It only says yes or no: when it says no, or the
 * schema holds anything it does not know (a refinement, a default, a transform), zod runs as
 * before and its message is the one the user sees. A yes returns the body as parsed, which is
 * what zod returns for these shapes (loose objects keep unknown fields).
 */

type Check = (v: unknown) => boolean;
/** The parts of a schema's public `def` (zod 4) this reads. */
type Def = {
  type: string;
  checks?: Array<{ def: { check?: string; format?: string } }>;
  shape?: Record<string, z.ZodType>;
  catchall?: z.ZodType;
  element?: z.ZodType;
  innerType?: z.ZodType;
  entries?: Record<string, unknown>;
  fn?: (v: unknown) => unknown;
};

const compiled = new WeakMap<z.ZodType, Check | null>();

/** The plain check for a schema, or null when the schema needs zod. */
export function plainCheck(schema: z.ZodType): Check | null {
  let check = compiled.get(schema);
  if (check === undefined) {
    check = compile(schema);
    compiled.set(schema, check);
  }
  return check;
}

const defOf = (schema: z.ZodType) => schema.def as Def;

function compile(schema: z.ZodType): Check | null {
  const def = defOf(schema);
  switch (def.type) {
    case "string":
      return def.checks?.length ? null : (v) => typeof v === "string";
    case "boolean":
      return (v) => typeof v === "boolean";
    case "number": {
      const checks = def.checks ?? [];
      const int = checks.some((c) => c.def.format === "safeint");
      if (checks.some((c) => c.def.format !== "safeint")) return null;
      return int ? (v) => Number.isSafeInteger(v) : (v) => Number.isFinite(v);
    }
    case "enum": {
      const values = new Set(Object.values(def.entries ?? {}));
      return (v) => values.has(v);
    }
    case "custom":
      return def.fn ? (v) => def.fn!(v) === true : null;
    case "nullable": {
      const inner = plainCheck(def.innerType!);
      return inner && ((v) => v === null || inner(v));
    }
    case "optional": {
      const inner = plainCheck(def.innerType!);
      return inner && ((v) => v === undefined || inner(v));
    }
    case "array": {
      const element = plainCheck(def.element!);
      return (
        element &&
        ((v) => {
          if (!Array.isArray(v)) return false;
          for (let i = 0; i < v.length; i++) if (!element(v[i])) return false;
          return true;
        })
      );
    }
    case "object": {
      // Only loose objects: zod would strip or refuse unknown fields of the others.
      if (!def.catchall || defOf(def.catchall).type !== "unknown") return null;
      const fields: Array<[string, Check]> = [];
      for (const [key, field] of Object.entries(def.shape ?? {})) {
        const c = plainCheck(field);
        if (!c) return null;
        fields.push([key, c]);
      }
      return (v) => {
        if (v === null || typeof v !== "object" || Array.isArray(v)) return false;
        const o = v as Record<string, unknown>;
        for (let i = 0; i < fields.length; i++) if (!fields[i][1](o[fields[i][0]])) return false;
        return true;
      };
    }
    default:
      return null;
  }
}
