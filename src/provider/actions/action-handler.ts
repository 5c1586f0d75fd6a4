import type { z } from "zod";
import type { HostingClient } from "../../api/wire";
import {
  inputsFrom,
  updatedOutputs,
  type InputsOf,
  type ResourceHandler,
} from "../resource-handler";
import { fieldLists, type Fields } from "../fields";
import { sameValue } from "../stable-json";

/** One action kind: its rules, declaration, id and what it does (each kind's handler.ts). */
export interface Action<S extends z.ZodObject> {
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
export function actionHandler<S extends z.ZodObject>(a: Action<S>): ResourceHandler<S> {
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
