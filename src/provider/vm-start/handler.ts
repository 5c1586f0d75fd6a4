import { actionHandler } from "../actions/action-handler";
import { vmStartFields } from "./fields";
import { vmStartInputSchema } from "./schema";

/** Starts the VM on create and whenever `triggers` change. */
export const vmStartHandler = actionHandler({
  schema: vmStartInputSchema,
  fields: vmStartFields,
  id: (i) => i.vmId,
  run: async (client, i) => (await client.startVm(i.vmId)).message,
});
