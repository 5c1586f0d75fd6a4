import { z } from "zod";
import { APP_SETTING_DEFAULTS } from "./world";

/*
 * The rules of the plain settings the record keeps (world.ts's APP_SETTING_DEFAULTS), by their
 * default's type: a setting kept there is read from a manifest and from a state file without a
 * rule written for it. A rule written in manifest.ts or state-schema.ts (with its limits) takes
 * precedence (`besides`).
 */

type Defaults = typeof APP_SETTING_DEFAULTS;
type RuleOf<V> = V extends number ? z.ZodNumber : z.ZodString;

const ruleOf = (v: string | number) => (typeof v === "number" ? z.number() : z.string());

/** Each plain setting as a manifest may carry it: optional, of its default's type. */
export const manifestSettings = Object.fromEntries(
  Object.entries(APP_SETTING_DEFAULTS).map(([k, v]) => [k, ruleOf(v).optional()]),
) as unknown as { [K in keyof Defaults]: z.ZodOptional<RuleOf<Defaults[K]>> };

/** Each plain setting as a state file keeps it: a file written before has none, so the default. */
export const storedSettings = Object.fromEntries(
  Object.entries(APP_SETTING_DEFAULTS).map(([k, v]) => [
    k,
    typeof v === "number" ? z.number().default(v) : z.string().default(v),
  ]),
) as unknown as { [K in keyof Defaults]: z.ZodDefault<RuleOf<Defaults[K]>> };
