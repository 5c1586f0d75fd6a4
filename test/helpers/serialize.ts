import type { ResourceKind } from "../../src/provider/handlers";
import { providerText } from "../../src/provider/provider-text";

/** `__provider` exactly as the resource classes write it. */
export function serializedProvider(kind: ResourceKind): Promise<string> {
  return Promise.resolve(providerText(kind));
}

export const urnOf = (kind: ResourceKind, name: string) =>
  `urn:pulumi:test::hosting::pulumi-nodejs:dynamic/hosting:${kind}::${name}`;
