import { z } from "zod";
import { assertType } from "../base";
import type { SameKeys, SchemaKeys } from "./fields";
import { idInput } from "../inputs";
import type { toggleFields } from "./toggle-fields";

/** Inputs of the per-app on/off resources (AppWebAccess, AppAnalytics). */
export const toggleInputSchema = z.strictObject({
  appId: idInput("appId", "pass app.id"),
  enabled: z.boolean({ error: "enabled is required: true or false" }),
});

// The rules and the declaration (toggle-fields.ts) name the same fields.
assertType<SameKeys<keyof typeof toggleInputSchema.shape, SchemaKeys<typeof toggleFields>>>(true);
