/* eslint-disable @typescript-eslint/no-require-imports */
import type * as pulumi from "@pulumi/pulumi";
import type { ResourceKind } from "./handlers";

type Handlers = typeof import("./handlers");

/**
 * The object Pulumi serializes into every resource's `__provider`. Each method loads the
 * package's handlers at call time and captures nothing but the resource kind, so the state holds
 * no token, URL or logic (a few hundred bytes), and a delete runs today's handler code.
 */
export function thinProvider(kind: ResourceKind): pulumi.dynamic.ResourceProvider {
  return {
    configure: (req) =>
      (require("pulumi-hosting") as Handlers).providerHandlers(kind).configure(req),
    check: (olds, news) =>
      (require("pulumi-hosting") as Handlers).providerHandlers(kind).check(olds, news),
    diff: (id, olds, news) =>
      (require("pulumi-hosting") as Handlers).providerHandlers(kind).diff(id, olds, news),
    create: (inputs) =>
      (require("pulumi-hosting") as Handlers).providerHandlers(kind).create(inputs),
    read: (id, props) =>
      (require("pulumi-hosting") as Handlers).providerHandlers(kind).read(id, props),
    update: (id, olds, news) =>
      (require("pulumi-hosting") as Handlers).providerHandlers(kind).update(id, olds, news),
    delete: (id, props) =>
      (require("pulumi-hosting") as Handlers).providerHandlers(kind).delete(id, props),
  };
}
