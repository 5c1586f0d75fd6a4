import type { ResourceKind } from "./resource-kind";

/**
 * The `__provider` text of a resource kind: the module Pulumi's dynamic-provider host loads
 * (`require` from a string, then `.handler()`, once per distinct text). It names the kind and
 * loads the package's handlers at call time, so the state holds no token, URL or logic and a
 * delete runs today's handler code.
 *
 * Written out rather than made by `serializeFunction` over a provider object: that costs ~2.2 KiB
 * of wrapping per kind, and the text travels in every request and answer of every resource (twice
 * in a refresh answer), where this is under 100 bytes.
 */
export function providerText(kind: ResourceKind): string {
  return `exports.handler = () => require("pulumi-hosting").providerHandlers(${JSON.stringify(kind)});\n`;
}
