import { randomUUID } from "node:crypto";
import type { StoredState } from "./state";

/*
 * The golden states were recorded by earlier releases as the engine keeps them (each resource's
 * urn, id, inputs, outputs, `__provider` text, secret keys), in the test harness's file format.
 * This turns one into the checkpoint Pulumi's CLI imports with `pulumi stack import`: the same
 * resources under the stack and the default `pulumi-nodejs` provider, secrets marked as secrets
 * (the CLI encrypts them with the stack's own secrets provider on import).
 */

/** Pulumi's marker for a secret value in a checkpoint. */
const SECRET_SIG = { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270" };

const secretValue = (v: unknown) => ({ ...SECRET_SIG, plaintext: JSON.stringify(v) });

function sealKeys(props: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  const out = { ...props };
  for (const k of keys) if (out[k] !== undefined) out[k] = secretValue(out[k]);
  return out;
}

/**
 * `empty` is the stack's own `pulumi stack export` before any deployment (it carries the
 * secrets provider); the result is what `pulumi stack import` takes. `config` is the stack
 * config the engine would have kept as the dynamic provider's inputs at the last `up` (refresh
 * and destroy configure the provider from there, not from today's config); `secretKeys` of it
 * are stored as secrets.
 */
export function toCheckpoint(
  state: StoredState,
  empty: { version: number; deployment: Record<string, unknown> },
  where: { project: string; stack: string },
  config: Record<string, string>,
  secretKeys: string[],
) {
  const { project, stack } = where;
  const providerInputs = sealKeys(config, secretKeys);
  const stackUrn = `urn:pulumi:${stack}::${project}::pulumi:pulumi:Stack::${project}-${stack}`;
  const providerUrn = `urn:pulumi:${stack}::${project}::pulumi:providers:pulumi-nodejs::default`;
  const providerId = randomUUID();
  const resources = [
    {
      urn: stackUrn,
      custom: false,
      type: "pulumi:pulumi:Stack",
      outputs: sealKeys(state.outputs, state.secretOutputs),
    },
    {
      urn: providerUrn,
      custom: true,
      id: providerId,
      type: "pulumi:providers:pulumi-nodejs",
      inputs: providerInputs,
      outputs: providerInputs,
    },
    ...state.resources.map((r) => ({
      urn: r.urn,
      custom: true,
      id: r.id,
      type: r.type,
      inputs: sealKeys(r.inputs, r.secretKeys ?? []),
      outputs: sealKeys(r.outputs, r.secretKeys ?? []),
      parent: stackUrn,
      provider: `${providerUrn}::${providerId}`,
      dependencies: r.dependencies ?? [],
      ...(r.retainOnDelete ? { retainOnDelete: true } : {}),
      ...(r.deleteBeforeReplace ? { deleteBeforeReplace: true } : {}),
    })),
  ];
  return {
    version: empty.version,
    deployment: { ...empty.deployment, resources },
  };
}
