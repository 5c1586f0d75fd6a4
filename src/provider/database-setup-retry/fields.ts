import { actionFields, target } from "../actions/action-fields";

/** DatabaseSetupRetry's fields, declared once. */
export const databaseSetupRetryFields = actionFields(
  {
    databaseId: target(
      "The database whose setup to restart. Changing it replaces the resource (a retry there).",
      "The database.",
    ),
  },
  "the setup is retried",
);
