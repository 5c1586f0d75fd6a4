import type { z } from "zod";
import type { HostingClient } from "../../api/client";
import { NotFoundError } from "../../api/errors/not-found-error";
import { inputsFrom, type Props, type ResourceHandler } from "../resource-handler";
import { sameValue } from "../stable-json";
import {
  backupDeletionInputSchema,
  databaseSetupRetryInputSchema,
  vmStartInputSchema,
  type BackupDeletionInputs,
  type DatabaseSetupRetryInputs,
  type VmStartInputs,
} from "./schema";

interface Action<I> {
  schema: z.ZodObject;
  /** Inputs that name the target: changing one replaces the resource (the action runs anew). */
  target: readonly string[];
  id(i: I): string;
  /** Does the action; returns the service's message. */
  run(client: HostingClient, i: I): Promise<string>;
}

/*
 * An action as a resource, like `@pulumi/command`: it acts on create and on an update whose
 * `triggers` changed, and never in check, diff or read, so a preview sends nothing. Deleting the
 * resource only forgets it: an action cannot be undone.
 */
function actionHandler<I>(a: Action<I>): ResourceHandler {
  return {
    schema: a.schema,
    replaceOnChange: a.target,

    async create(client, inputs) {
      const i = inputs as I;
      return { id: a.id(i), outs: { ...inputs, message: await a.run(client, i) } };
    },

    // Nothing on the service records that an action ran: the state is what this stack did.
    async read(_client, _id, props) {
      return { props, inputs: inputsFrom(a.schema, props) };
    },

    async update(client, _id, olds: Props, news: Props) {
      if (sameValue(olds.triggers ?? null, news.triggers ?? null)) return { ...olds, ...news };
      return { ...news, message: await a.run(client, news as I) };
    },

    async delete() {},
  };
}

export const vmStartHandler = actionHandler<VmStartInputs>({
  schema: vmStartInputSchema,
  target: ["vmId"],
  id: (i) => i.vmId,
  run: async (client, i) => (await client.startVm(i.vmId)).message,
});

export const databaseSetupRetryHandler = actionHandler<DatabaseSetupRetryInputs>({
  schema: databaseSetupRetryInputSchema,
  target: ["databaseId"],
  id: (i) => i.databaseId,
  run: async (client, i) => (await client.retryDatabaseSetup(i.databaseId)).message,
});

export const backupDeletionHandler = actionHandler<BackupDeletionInputs>({
  schema: backupDeletionInputSchema,
  target: ["projectId", "backupId"],
  id: (i) => `${i.projectId}/${i.backupId}`,
  async run(client, i) {
    try {
      return (await client.deleteBackup(i.projectId, i.backupId)).message;
    } catch (err) {
      // The goal is "this backup does not exist": one already deleted (by an earlier run whose
      // reply was lost, or by hand) is done, not an error.
      if (NotFoundError.isInstance(err)) return `backup ${i.backupId} was already deleted`;
      throw err;
    }
  },
});
