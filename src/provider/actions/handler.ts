import type { z } from "zod";
import { type HostingClient, NotFoundError } from "../../api/wire";
import {
  inputsFrom,
  updatedOutputs,
  type InputsOf,
  type ResourceHandler,
} from "../resource-handler";
import { fieldLists, type Fields } from "../fields";
import { sameValue } from "../stable-json";
import { backupDeletionFields, databaseSetupRetryFields, vmStartFields } from "./fields";
import {
  backupDeletionInputSchema,
  databaseSetupRetryInputSchema,
  vmStartInputSchema,
} from "./schema";

interface Action<S extends z.ZodObject> {
  schema: S;
  /** Its declaration: the target's fields replace the resource (the action runs anew). */
  fields: Fields;
  id(i: InputsOf<S>): string;
  /** Does the action; returns the service's message. */
  run(client: HostingClient, i: InputsOf<S>): Promise<string>;
}

/*
 * An action as a resource, like `@pulumi/command`: it acts on create and on an update whose
 * `triggers` changed, and never in check, diff or read, so a preview sends nothing. Deleting the
 * resource only forgets it: an action cannot be undone.
 */
function actionHandler<S extends z.ZodObject>(a: Action<S>): ResourceHandler<S> {
  return {
    schema: a.schema,
    replaceOnChange: fieldLists(a.fields).replaceOnChange,
    documentedDefaults: fieldLists(a.fields).documentedDefaults,

    async create(client, i) {
      return { id: a.id(i), outs: { ...i, message: await a.run(client, i) } };
    },

    // Nothing on the service records that an action ran: the state is what this stack did.
    async read(_client, _id, props) {
      return { props, inputs: inputsFrom(a.schema, props) };
    },

    async update(client, _id, olds, news) {
      if (sameValue(olds.triggers ?? [], news.triggers ?? [])) {
        return updatedOutputs(a, olds, news);
      }
      return { ...news, message: await a.run(client, news) };
    },

    async delete() {},
  };
}

export const vmStartHandler = actionHandler({
  schema: vmStartInputSchema,
  fields: vmStartFields,
  id: (i) => i.vmId,
  run: async (client, i) => (await client.startVm(i.vmId)).message,
});

export const databaseSetupRetryHandler = actionHandler({
  schema: databaseSetupRetryInputSchema,
  fields: databaseSetupRetryFields,
  id: (i) => i.databaseId,
  run: async (client, i) => (await client.retryDatabaseSetup(i.databaseId)).message,
});

export const backupDeletionHandler = actionHandler({
  schema: backupDeletionInputSchema,
  fields: backupDeletionFields,
  id: (i) => `${i.projectId}/${i.backupId}`,
  async run(client, i) {
    try {
      return (await client.deleteBackup(i.projectId, i.backupId)).message;
    } catch (err) {
      // The goal is "this backup does not exist": one already deleted (by an earlier run whose
      // reply was lost, or by hand) is done, not an error.
      if (err instanceof NotFoundError) return `backup ${i.backupId} was already deleted`;
      throw err;
    }
  },
});
