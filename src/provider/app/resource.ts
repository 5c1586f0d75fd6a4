import * as pulumi from "@pulumi/pulumi";
import type { AccountInput } from "../account-input";
import { thinProvider } from "../thin-provider";
import { refuseLostEnvKeys } from "./env-keys";

export interface AppRuntime {
  /** e.g. "node"; see getRuntimeVersions(). */
  language: pulumi.Input<string>;
  version: pulumi.Input<string>;
}

export interface AppArgs extends AccountInput {
  /** The app's directory or a .zip. Packed deterministically; node_modules, .git and
   * .hostingignore matches are left out. Its content (not its path) decides replacement. */
  source: pulumi.Input<string>;
  name: pulumi.Input<string>;
  /** Environment variables; always stored as a secret. */
  env?: pulumi.Input<Record<string, pulumi.Input<string>>>;
  /** RAM in MB. */
  ram?: pulumi.Input<number>;
  vcpu?: pulumi.Input<number>;
  entrypoint?: pulumi.Input<string>;
  subdomain?: pulumi.Input<string>;
  description?: pulumi.Input<string>;
  customCommand?: pulumi.Input<string>;
  runtime?: pulumi.Input<AppRuntime>;
  /** How long create waits for setup before failing (the app is kept in state). Default 300. */
  setupTimeoutSeconds?: pulumi.Input<number>;
  /** Manage an existing app (by id) instead of creating one: `pulumi import` does not work for
   * dynamic resources. Read only when the App is created; from then on the program is the truth
   * (a change that replaces the App replaces the adopted app). Destroying the stack deletes it. */
  adoptId?: pulumi.Input<string>;
}

const provider = thinProvider("App");

/** An app, created from a source directory or archive; replaced when its content or settings change. */
export class App extends pulumi.dynamic.Resource {
  declare readonly source: pulumi.Output<string>;
  declare readonly name: pulumi.Output<string>;
  declare readonly env: pulumi.Output<Record<string, string> | undefined>;
  declare readonly ram: pulumi.Output<number>;
  declare readonly vcpu: pulumi.Output<number>;
  declare readonly entrypoint: pulumi.Output<string>;
  declare readonly subdomain: pulumi.Output<string>;
  declare readonly description: pulumi.Output<string>;
  declare readonly customCommand: pulumi.Output<string>;
  declare readonly runtime: pulumi.Output<{ language: string; version: string } | undefined>;
  declare readonly setupTimeoutSeconds: pulumi.Output<number | undefined>;
  declare readonly adoptId: pulumi.Output<string | undefined>;
  /** The named account the app belongs to; undefined for the default account. */
  declare readonly account: pulumi.Output<string | undefined>;
  /** sha256 over the packed content (paths, modes, file hashes, manifest), not the zip bytes. */
  declare readonly sourceHash: pulumi.Output<string>;
  declare readonly userId: pulumi.Output<string>;
  declare readonly isApp: pulumi.Output<boolean>;
  declare readonly blockedUntil: pulumi.Output<string | null>;
  declare readonly setup: pulumi.Output<boolean>;
  declare readonly createdAt: pulumi.Output<string>;
  declare readonly lastSetupAt: pulumi.Output<string | null>;
  declare readonly customDomain: pulumi.Output<string>;

  constructor(name: string, args: AppArgs, opts?: pulumi.CustomResourceOptions) {
    // Every declared output needs its key here, or it is undefined at run time (a dynamic
    // resource only gets outputs for the keys it registers). Unset settings resolve to what the
    // platform reports (e.g. the assigned subdomain) or to undefined inside the Output.
    const props = {
      ram: undefined,
      vcpu: undefined,
      entrypoint: undefined,
      subdomain: undefined,
      description: undefined,
      customCommand: undefined,
      runtime: undefined,
      setupTimeoutSeconds: undefined,
      adoptId: undefined,
      account: undefined,
      ...args,
      env: args.env === undefined ? undefined : pulumi.secret(refuseLostEnvKeys(args.env)),
      sourceHash: undefined,
      userId: undefined,
      isApp: undefined,
      blockedUntil: undefined,
      setup: undefined,
      createdAt: undefined,
      lastSetupAt: undefined,
      customDomain: undefined,
    };
    super(provider, name, props, withSecretOutputs(opts, ["env"]), "hosting", "App");
  }
}

function withSecretOutputs(
  opts: pulumi.CustomResourceOptions | undefined,
  keys: string[],
): pulumi.CustomResourceOptions {
  const extra = opts?.additionalSecretOutputs ?? [];
  return { ...opts, additionalSecretOutputs: [...new Set([...extra, ...keys])] };
}
