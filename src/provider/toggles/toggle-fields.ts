import type { Fields } from "../fields";

/**
 * What the per-app on/off resources (AppWebAccess, AppAnalytics) declare alike; each kind's own
 * declaration is its folder's fields.ts.
 */
export const toggleFields = {
  appId: {
    doc: "The app, e.g. `app.id`. Changing it replaces the resource.",
    outputDoc: "The app.",
    type: "string",
    input: "required",
    replaces: true,
  },
  enabled: {
    doc: "On or off. Changes in place.",
    outputDoc: "Whether the setting is on.",
    type: "boolean",
    input: "required",
  },
} as const satisfies Fields;
