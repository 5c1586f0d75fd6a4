import * as pulumi from "@pulumi/pulumi";
import type { AccountInput } from "../account-input";
import { assertType, type SameNames } from "../../base";
import { fieldLists, registeredProps, type ArgKeys } from "../fields";
import { HostingResource, type OutputKeys } from "../hosting-resource";
import { appFields } from "./fields";
import { refuseLostEnvKeys } from "./env-keys";
import { URN_INPUT } from "../urn-input";

const APP_TYPE = "pulumi-nodejs:dynamic/hosting:App";
import { refuseMissingSource } from "./source-exists";

/** The language runtime an app runs on; see {@link getRuntimeVersions} for what exists. */
export interface AppRuntime {
  /** The language, e.g. `"node"`. */
  language: pulumi.Input<string>;
  /** The version, e.g. `"20.18.1"`; {@link pickRuntimeVersion} picks the recommended one. */
  version: pulumi.Input<string>;
}

/**
 * Inputs of an {@link App}. The API has no endpoint that changes an app's settings, so a change
 * to any of them replaces the app (a new one is created, then the old one deleted); only
 * `setupTimeoutSeconds` changes in place.
 */
export interface AppArgs extends AccountInput {
  // <declarations: AppArgs> written by `npm run declarations` from provider/app/fields.ts
  /**
   * The app's directory or a `.zip`; a relative path is taken from the project's folder (use
   * `path.join(__dirname, ...)`), `~` is not expanded. Packed deterministically; `node_modules`,
   * `.git` and `.hostingignore` matches (case-sensitive) are left out; links inside it are
   * followed. At most 256 MiB a file and 1 GiB in all; names must be UTF-8 without backslashes. Its
   * content (not its path) decides replacement: changing a file replaces the app.
   */
  source: pulumi.Input<string>;
  /**
   * The app's name: 1-63 letters, digits, spaces, `.`, `_` or `-`, starting with a letter or digit.
   * When omitted, the resource name plus a suffix of its stack's own (`web-3f9a1c2`), kept in
   * state: each stack of a program gets its own app name. Changing it replaces the app.
   */
  name?: pulumi.Input<string>;
  /**
   * Environment variables (names: letters, digits, `_`); always stored as a secret. Changing them
   * replaces the app.
   */
  env?: pulumi.Input<Record<string, pulumi.Input<string>>>;
  /**
   * RAM in MB (at least 128); the platform's default when omitted. Changing it replaces the app.
   */
  ram?: pulumi.Input<number>;
  /**
   * Number of virtual CPUs (at least 1); the platform's default when omitted. Changing it replaces
   * the app.
   */
  vcpu?: pulumi.Input<number>;
  /**
   * The file the runtime starts, by its path in the source, e.g. `"index.js"` or `"src/server.js"`;
   * the runtime's default when omitted. Check fails when the source does not upload that file.
   * Changing it replaces the app.
   */
  entrypoint?: pulumi.Input<string>;
  /**
   * The platform subdomain to serve on (1-63 lower-case letters, digits and `-`, not at either
   * end); assigned when omitted. Changing it replaces the app.
   */
  subdomain?: pulumi.Input<string>;
  /** Free text, at most 500 characters. Changing it replaces the app. */
  description?: pulumi.Input<string>;
  /** A start command that replaces the runtime's default. Changing it replaces the app. */
  customCommand?: pulumi.Input<string>;
  /**
   * Language and version to run on (`{ language, version }`; the object `pickRuntimeVersion`
   * returns fits, its other fields are ignored); the platform's default when omitted. Changing it
   * replaces the app.
   */
  runtime?: pulumi.Input<AppRuntime>;
  /**
   * How long create waits for setup to finish, in seconds (more than 0, at most 3600; default 300).
   * Past it the app is kept in the stack as "created but failed to initialise". Changes in place.
   */
  setupTimeoutSeconds?: pulumi.Input<number>;
  /**
   * Manage an existing app (by id) instead of creating one: `pulumi import` does not work for
   * dynamic resources. Read only when the App is created; from then on the program is the truth (a
   * change that replaces the App replaces the adopted app). Destroying the stack deletes it.
   */
  adoptId?: pulumi.Input<string>;
  // </declarations>
}

/** The runtime of an {@link App}, as its `runtime` output carries it. */
export interface AppRuntimeOutput {
  /** The language, e.g. `"node"`. */
  language: string;
  /** The version, e.g. `"20.18.1"`. */
  version: string;
}

/**
 * An app, created from a source directory or archive; replaced when its content or settings
 * change. Outputs echo the inputs and the documented fields of the API's app summary, camelCased
 * (no other field of the service's answer is read).
 * @example
 * ```ts
 * const app = new hosting.App("web", {
 *   source: path.join(__dirname, "app"),
 *   name: "web",
 *   ram: 512,
 *   runtime: { language: "node", version: "20.18.1" },
 * });
 * export const subdomain = app.subdomain;
 * ```
 */
export class App extends HostingResource {
  /** The named account the app belongs to; undefined for the default account. */
  declare readonly account: pulumi.Output<string | undefined>;
  // <declarations: App outputs> written by `npm run declarations` from provider/app/fields.ts
  /** The source path as given. */
  declare readonly source: pulumi.Output<string>;
  /** The app's name, as the platform reports it. */
  declare readonly name: pulumi.Output<string>;
  /** The environment variables; a secret. */
  declare readonly env: pulumi.Output<Record<string, string> | undefined>;
  /** RAM in MB, as the platform reports it. */
  declare readonly ram: pulumi.Output<number>;
  /** Number of virtual CPUs, as the platform reports it. */
  declare readonly vcpu: pulumi.Output<number>;
  /** The file the runtime starts, as the platform reports it. */
  declare readonly entrypoint: pulumi.Output<string>;
  /** The platform subdomain the app is served on (the assigned one when not set). */
  declare readonly subdomain: pulumi.Output<string>;
  /** Free text, as the platform reports it. */
  declare readonly description: pulumi.Output<string>;
  /** The start command, when set. */
  declare readonly customCommand: pulumi.Output<string>;
  /** Language and version, when set. */
  declare readonly runtime: pulumi.Output<AppRuntimeOutput | undefined>;
  /** How long create waits for setup, in seconds, when set. */
  declare readonly setupTimeoutSeconds: pulumi.Output<number | undefined>;
  /** The id of the adopted app, when set. */
  declare readonly adoptId: pulumi.Output<string | undefined>;
  /**
   * sha256 over the packed content (paths, modes, file hashes; the settings are compared as
   * inputs), not the zip bytes; a change to it replaces the app.
   */
  declare readonly sourceHash: pulumi.Output<string>;
  /** The owner's user id. */
  declare readonly userId: pulumi.Output<string>;
  /** Always true for an app. */
  declare readonly isApp: pulumi.Output<boolean>;
  /** Blocked until this time (ISO 8601), or null when not blocked. */
  declare readonly blockedUntil: pulumi.Output<string | null>;
  /** Whether setup has finished (the app is ready). */
  declare readonly setup: pulumi.Output<boolean>;
  /** When the app was created (ISO 8601). */
  declare readonly createdAt: pulumi.Output<string>;
  /** When setup last ran (ISO 8601), or null. */
  declare readonly lastSetupAt: pulumi.Output<string | null>;
  /**
   * Deprecated: undefined. The domain is the `hostname` of the CustomDomain resource; read from the
   * app, it changed on every refresh after a CustomDomain attached. Stacks made by older versions
   * keep the value they recorded.
   * @deprecated Use the `hostname` of the {@link CustomDomain}.
   */
  declare readonly customDomain: pulumi.Output<string | undefined>;
  // </declarations>

  /**
   * @param name The Pulumi resource name (not the app's name).
   * @param args The app's settings.
   * @param opts Pulumi resource options.
   */
  constructor(name: string, args: AppArgs, opts?: pulumi.CustomResourceOptions) {
    refuseMissingSource(args.source);
    // Every declared field is registered (appFields), or its output is undefined at run time.
    const props = registeredProps(appFields, args);
    if (args.env !== undefined) props.env = pulumi.secret(refuseLostEnvKeys(args.env));
    // For the create's Idempotency-Key: the host tells the provider neither stack nor URN.
    props[URN_INPUT] = pulumi.createUrn(name, APP_TYPE, opts?.parent);
    super("App", name, props, withSecretOutputs(opts, fieldLists(appFields).secrets));
  }
}

// The written Args and outputs (npm run declarations) name exactly the declared fields.
assertType<
  SameNames<
    keyof AppArgs,
    ArgKeys<typeof appFields> | "account",
    "AppArgs (src/provider/app/resource.ts)"
  >
>(true);
assertType<
  SameNames<
    OutputKeys<App>,
    keyof typeof appFields | "account",
    "App's outputs (src/provider/app/resource.ts)"
  >
>(true);

function withSecretOutputs(
  opts: pulumi.CustomResourceOptions | undefined,
  keys: string[],
): pulumi.CustomResourceOptions {
  const extra = opts?.additionalSecretOutputs ?? [];
  return { ...opts, additionalSecretOutputs: [...new Set([...extra, ...keys])] };
}
