/* eslint-disable @typescript-eslint/no-require-imports */
import type * as pulumi from "@pulumi/pulumi";
import type { ResourceKind } from "./handlers";

type Handlers = typeof import("./handlers");

/**
 * The object Pulumi serializes into every resource's `__provider`. Each method loads the
 * package's handlers at call time and captures nothing but the resource kind, so the state holds
 * no token, URL or logic, and a delete runs today's handler code. (Bodies are kept short: the
 * serializer wraps every method in ~150 bytes of its own, so text here is paid for seven times.)
 */
export function thinProvider(k: ResourceKind): pulumi.dynamic.ResourceProvider {
  return {
    configure: (r) => (require("pulumi-hosting") as Handlers).providerHandlers(k).configure(r),
    check: (o, n) => (require("pulumi-hosting") as Handlers).providerHandlers(k).check(o, n),
    diff: (i, o, n) => (require("pulumi-hosting") as Handlers).providerHandlers(k).diff(i, o, n),
    create: (n) => (require("pulumi-hosting") as Handlers).providerHandlers(k).create(n),
    read: (i, p) => (require("pulumi-hosting") as Handlers).providerHandlers(k).read(i, p),
    update: (i, o, n) =>
      (require("pulumi-hosting") as Handlers).providerHandlers(k).update(i, o, n),
    delete: (i, p) => (require("pulumi-hosting") as Handlers).providerHandlers(k).delete(i, p),
  };
}
