import * as pulumi from "@pulumi/pulumi";
import { thinProvider } from "../../src/provider/thin-provider";
import type { ResourceKind } from "../../src/provider/handlers";

/** `__provider` exactly as Pulumi's dynamic.Resource makes it: serializeFunction over the object. */
export async function serializedProvider(kind: ResourceKind): Promise<string> {
  const provider = thinProvider(kind);
  const sf = await pulumi.runtime.serializeFunction(() => provider, { allowSecrets: true });
  return sf.text;
}

export const urnOf = (kind: ResourceKind, name: string) =>
  `urn:pulumi:test::hosting::pulumi-nodejs:dynamic/hosting:${kind}::${name}`;
