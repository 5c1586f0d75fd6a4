import { actionFields, target } from "../actions/action-fields";

/** VmStart's fields, declared once. */
export const vmStartFields = actionFields(
  {
    vmId: target(
      "The VM to start. Changing it replaces the resource, which starts the new VM.",
      "The VM.",
    ),
  },
  "the VM is started",
);
