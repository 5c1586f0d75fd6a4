import { z } from "zod";

/** Inputs of the per-app on/off resources (AppWebAccess, AppAnalytics). */
export const toggleInputSchema = z.strictObject({
  appId: z.string({ error: "appId is required: pass app.id" }).min(1, "appId must not be empty"),
  enabled: z.boolean({ error: "enabled is required: true or false" }),
});

export type ToggleInputs = z.infer<typeof toggleInputSchema>;
