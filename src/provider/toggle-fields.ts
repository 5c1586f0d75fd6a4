import type { Fields } from "./fields";

/** The fields of the per-app on/off resources (AppWebAccess, AppAnalytics), declared once. */
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

export const webAccessFields = {
  ...toggleFields,
  enabled: {
    ...toggleFields.enabled,
    doc:
      "false takes the app off the public web; deleting this resource turns it back on (the " +
      "platform default). Changes in place.",
  },
} as const satisfies Fields;

export const analyticsFields = {
  ...toggleFields,
  enabled: {
    ...toggleFields.enabled,
    doc:
      "Traffic analytics (needed by `getAppDashboard`); deleting this resource turns it " +
      "off (the platform default). Changes in place.",
  },
} as const satisfies Fields;
