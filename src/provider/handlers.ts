import type * as pulumi from "@pulumi/pulumi";
import {
  backupDeletionHandler,
  databaseSetupRetryHandler,
  vmStartHandler,
} from "./actions/handler";
import { analyticsHandler } from "./analytics/handler";
import { appHandler } from "./app/handler";
import { clientFor, resolveConnection, type ConfigSource } from "./config";
import { customDomainHandler } from "./custom-domain/handler";
import {
  checkWith,
  diffWith,
  ResourceInitError,
  type Props,
  type ResourceHandler,
} from "./resource-handler";
import { webAccessHandler } from "./web-access/handler";

/*
 * The code behind every dynamic resource. It runs inside Pulumi's provider host, loaded at call
 * time by the thin provider objects, so it is never serialized into state: fixes here reach
 * existing stacks, and nothing here (least of all the token) is written to `__provider`.
 */

const table = {
  App: appHandler,
  CustomDomain: customDomainHandler,
  AppWebAccess: webAccessHandler,
  AppAnalytics: analyticsHandler,
  VmStart: vmStartHandler,
  DatabaseSetupRetry: databaseSetupRetryHandler,
  BackupDeletion: backupDeletionHandler,
} satisfies Record<string, ResourceHandler>;

export type ResourceKind = keyof typeof table;

/** Stack config handed over by the engine in configure(); env vars are the fallback. */
let stackConfig: ConfigSource | undefined;

function client() {
  return clientFor(resolveConnection(stackConfig));
}

type Methods = ReturnType<typeof methodsFor>;
const methods = new Map<ResourceKind, Methods>();

/** @internal The dynamic-provider methods for one resource type (made once per kind). */
export function providerHandlers(kind: ResourceKind): Methods {
  let m = methods.get(kind);
  if (!m) {
    m = methodsFor(table[kind]);
    methods.set(kind, m);
  }
  return m;
}

function methodsFor(h: ResourceHandler) {
  return {
    async configure(req: pulumi.dynamic.ConfigureRequest): Promise<void> {
      stackConfig = (key) => {
        const v: unknown = req.config.get(key);
        return typeof v === "string" && v.length > 0 ? v : undefined;
      };
    },
    async check(olds: Props, news: Props): Promise<pulumi.dynamic.CheckResult> {
      return checkWith(h, olds, news);
    },
    async diff(id: string, olds: Props, news: Props): Promise<pulumi.dynamic.DiffResult> {
      const result = diffWith(h, olds, news);
      h.diffed?.(id, olds, result.replaces);
      return result;
    },
    async create(inputs: Props): Promise<pulumi.dynamic.CreateResult> {
      try {
        return await h.create(client(), inputs);
      } catch (err) {
        // Pulumi stores these properties as the resource's state; later operations (a delete)
        // need the serialized provider in them like in any other state.
        if (err instanceof ResourceInitError) err.properties.__provider = inputs.__provider;
        throw err;
      }
    },
    async read(id: string, props: Props): Promise<pulumi.dynamic.ReadResult> {
      const found = await h.read(client(), id, props ?? {});
      // No id tells Pulumi the object is gone: a refresh drops it from the stack.
      return found ? { id, props: found.props, inputs: found.inputs } : {};
    },
    async update(id: string, olds: Props, news: Props): Promise<pulumi.dynamic.UpdateResult> {
      return { outs: h.update ? await h.update(client(), id, olds, news) : { ...olds, ...news } };
    },
    async delete(id: string, props: Props): Promise<void> {
      await h.delete(client(), id, props);
    },
  };
}
