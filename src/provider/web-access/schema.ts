import { assertType } from "../../base";
import type { SameKeys, SchemaKeys } from "../fields";
import { toggleInputSchema } from "../toggles/toggle-schema";
import type { webAccessFields } from "./fields";

/** Inputs of AppWebAccess: the toggle's. */
export const webAccessInputSchema = toggleInputSchema;

// The rules and the declaration (fields.ts) name the same fields.
assertType<SameKeys<keyof typeof webAccessInputSchema.shape, SchemaKeys<typeof webAccessFields>>>(
  true,
);
