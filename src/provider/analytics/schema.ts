import { assertType } from "../../base";
import type { SameKeys, SchemaKeys } from "../fields";
import { toggleInputSchema } from "../toggles/toggle-schema";
import type { analyticsFields } from "./fields";

/** Inputs of AppAnalytics: the toggle's. */
export const analyticsInputSchema = toggleInputSchema;

// The rules and the declaration (fields.ts) name the same fields.
assertType<SameKeys<keyof typeof analyticsInputSchema.shape, SchemaKeys<typeof analyticsFields>>>(
  true,
);
