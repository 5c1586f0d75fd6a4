import type { Fields } from "../fields";
import { toggleFields } from "../toggles/toggle-fields";

/** AppWebAccess's fields: the toggle's, with its own words for `enabled`. */
export const webAccessFields = {
  ...toggleFields,
  enabled: {
    ...toggleFields.enabled,
    doc:
      "false takes the app off the public web; deleting this resource turns it back on (the " +
      "platform default). Changes in place.",
  },
} as const satisfies Fields;
