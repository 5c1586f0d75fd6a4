import { z } from "zod";
import { idInput } from "../../inputs";

/*
 * The check rules of the per-app on/off resources (AppWebAccess, AppAnalytics), alike for both;
 * each kind's schema.ts holds them to its own declaration.
 */
export const toggleInputSchema = z.strictObject({
  appId: idInput("appId", "pass app.id"),
  enabled: z.boolean({ error: "enabled is required: true or false" }),
});
