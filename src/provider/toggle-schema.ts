import { z } from "zod";
import { idInput } from "./input-rules";

/** Inputs of the per-app on/off resources (AppWebAccess, AppAnalytics). */
export const toggleInputSchema = z.strictObject({
  appId: idInput("appId", "pass app.id"),
  enabled: z.boolean({ error: "enabled is required: true or false" }),
});
