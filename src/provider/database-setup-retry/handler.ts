import { actionHandler } from "../actions/action-handler";
import { databaseSetupRetryFields } from "./fields";
import { databaseSetupRetryInputSchema } from "./schema";

/** Restarts the database's setup on create and whenever `triggers` change. */
export const databaseSetupRetryHandler = actionHandler({
  schema: databaseSetupRetryInputSchema,
  fields: databaseSetupRetryFields,
  id: (i) => i.databaseId,
  run: async (client, i) => (await client.retryDatabaseSetup(i.databaseId)).message,
});
