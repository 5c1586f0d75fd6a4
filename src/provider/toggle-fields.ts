import type { Fields } from "./fields";

/** The fields of the per-app on/off resources (AppWebAccess, AppAnalytics), declared once. */
export const toggleFields = {
  appId: {
    doc: "The app, e.g. `app.id`. Changing it replaces the resource.",
    type: "string",
    input: "required",
    replaces: true,
  },
  enabled: { doc: "On or off. Changes in place.", type: "boolean", input: "required" },
} as const satisfies Fields;
