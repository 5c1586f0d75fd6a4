import type { Fields } from "../fields";
import { toggleFields } from "../toggles/toggle-fields";

/** AppAnalytics's fields: the toggle's, with its own words for `enabled`. */
export const analyticsFields = {
  ...toggleFields,
  enabled: {
    ...toggleFields.enabled,
    doc:
      "Traffic analytics (needed by `getAppDashboard`); deleting this resource turns it " +
      "off (the platform default). Changes in place.",
  },
} as const satisfies Fields;
