import type { Field } from "../fields";

/**
 * A field of an App. Each input also says whether it decides the app a create makes
 * (`decidesApp`): those are the create's Idempotency-Key (create-key.ts), and an app of the list
 * is taken as one this create made only when the ones the service reports agree
 * (created-shape.ts). Forgetting one would let two creates that differ only in it send the same
 * key, and a service that honours keys answer the second with the first app.
 */
export type AppField = Field &
  (
    | { readonly input?: undefined }
    | { readonly input: NonNullable<Field["input"]>; readonly decidesApp: boolean }
  );

/*
 * Every field of an App, declared once. The service has no endpoint that changes an app's
 * settings: every setting replaces the app; only setupTimeoutSeconds changes in place.
 */
export const appFields = {
  source: {
    doc:
      "The app's directory or a `.zip`; a relative path is taken from the project's folder (use " +
      "`path.join(__dirname, ...)`), `~` is not expanded. Packed deterministically; " +
      "`node_modules`, `.git` and `.hostingignore` matches (case-sensitive) are left out; links " +
      "inside it are followed. At most 256 MiB a file and 1 GiB in all; names must be UTF-8 " +
      "without backslashes. Its content (not its path) decides replacement: changing a file replaces " +
      "the app.",
    outputDoc: "The source path as given.",
    type: "string",
    input: "required",
    decidesApp: false,
    // Its content is compared through sourceHash.
    notCompared: true,
  },
  name: {
    doc:
      "The app's name: 1-63 letters, digits, spaces, `.`, `_` or `-`, starting with a letter or " +
      "digit. When omitted, the resource name plus a suffix of its stack's own (`web-3f9a1c2`), " +
      "kept in state: each stack of a program gets its own app name. Changing it replaces the app.",
    outputDoc: "The app's name, as the platform reports it.",
    type: "string",
    input: "optional",
    decidesApp: true,
    wire: "name",
    checkFills: true,
    replaces: true,
    from: "name",
  },
  env: {
    doc:
      "Environment variables (names: letters, digits, `_`); always stored as a secret. Changing " +
      "them replaces the app.",
    outputDoc: "The environment variables; a secret.",
    type: "Record<string, string>",
    input: "optional",
    decidesApp: true,
    replaces: true,
    secret: true,
  },
  ram: {
    doc: "RAM in MB (at least 128); the platform's default when omitted. Changing it replaces the app.",
    outputDoc: "RAM in MB, as the platform reports it.",
    type: "number",
    input: "optional",
    decidesApp: true,
    wire: "ram",
    replaces: true,
    platformDefault: true,
    from: "ram",
  },
  vcpu: {
    doc:
      "Number of virtual CPUs (at least 1); the platform's default when omitted. Changing it " +
      "replaces the app.",
    outputDoc: "Number of virtual CPUs, as the platform reports it.",
    type: "number",
    input: "optional",
    decidesApp: true,
    wire: "vcpu",
    replaces: true,
    platformDefault: true,
    from: "vcpu",
  },
  entrypoint: {
    doc:
      'The file the runtime starts, by its path in the source, e.g. `"index.js"` or ' +
      '`"src/server.js"`; the runtime\'s default when omitted. Check fails when the source ' +
      "does not upload that file. Changing it replaces the app.",
    outputDoc: "The file the runtime starts, as the platform reports it.",
    type: "string",
    input: "optional",
    decidesApp: true,
    wire: "entrypoint",
    replaces: true,
    platformDefault: true,
    from: "entrypoint",
  },
  subdomain: {
    doc:
      "The platform subdomain to serve on (1-63 lower-case letters, digits and `-`, not at " +
      "either end); assigned when omitted. Changing it replaces the app.",
    outputDoc: "The platform subdomain the app is served on (the assigned one when not set).",
    type: "string",
    input: "optional",
    decidesApp: true,
    wire: "subdomain",
    replaces: true,
    platformDefault: true,
    from: "subdomain",
  },
  description: {
    doc: "Free text, at most 500 characters. Changing it replaces the app.",
    outputDoc: "Free text, as the platform reports it.",
    type: "string",
    input: "optional",
    decidesApp: true,
    wire: "description",
    replaces: true,
    platformDefault: true,
    from: "description",
  },
  customCommand: {
    doc: "A start command that replaces the runtime's default. Changing it replaces the app.",
    outputDoc: "The start command, when set.",
    type: "string",
    input: "optional",
    decidesApp: true,
    wire: "custom_command",
    replaces: true,
    platformDefault: true,
    from: "custom_command",
  },
  runtime: {
    doc:
      "Language and version to run on (`{ language, version }`; the object `pickRuntimeVersion` " +
      "returns fits, its other fields are ignored); the platform's default when omitted. " +
      "Changing it replaces the app.",
    outputDoc: "Language and version, when set.",
    type: "{ language: string; version: string }",
    argType: "AppRuntime",
    outputType: "AppRuntimeOutput",
    input: "optional",
    decidesApp: true,
    shape: { language: "value", version: "value" },
    wire: "runtime",
    replaces: true,
  },
  setupTimeoutSeconds: {
    doc:
      "How long create waits for setup to finish, in seconds (more than 0, at most 3600; default " +
      '300). Past it the app is kept in the stack as "created but failed to initialise". Changes ' +
      "in place.",
    outputDoc: "How long create waits for setup, in seconds, when set.",
    type: "number",
    input: "optional",
    decidesApp: false,
    default: 300,
  },
  adoptId: {
    doc:
      "Manage an existing app (by id) instead of creating one: `pulumi import` does not work for " +
      "dynamic resources. Read only when the App is created; from then on the program is the " +
      "truth (a change that replaces the App replaces the adopted app). Destroying the stack " +
      "deletes it.",
    outputDoc: "The id of the adopted app, when set.",
    type: "string",
    input: "optional",
    decidesApp: false,
    // Read once, when the App is created (like `pulumi import`): changing or removing it later
    // does nothing, so the adopted app is never replaced or deleted because of it.
    notCompared: true,
  },
  sourceHash: {
    doc:
      "sha256 over the packed content (paths, modes, file hashes; the settings are compared as " +
      "inputs), not the zip bytes; a change to it replaces the app.",
    type: "string",
    input: "computed",
    decidesApp: true,
    replaces: true,
  },
  userId: { doc: "The owner's user id.", type: "string", from: "user_id" },
  isApp: { doc: "Always true for an app.", type: "boolean", from: "is_app" },
  blockedUntil: {
    doc: "Blocked until this time (ISO 8601), or null when not blocked.",
    type: "string | null",
    from: "blocked_until",
  },
  setup: { doc: "Whether setup has finished (the app is ready).", type: "boolean", from: "setup" },
  createdAt: { doc: "When the app was created (ISO 8601).", type: "string", from: "created_at" },
  lastSetupAt: {
    doc: "When setup last ran (ISO 8601), or null.",
    type: "string | null",
    from: "last_setup_at",
  },
  customDomain: {
    doc:
      "Deprecated: undefined. The domain is the `hostname` of the CustomDomain resource; read " +
      "from the app, it changed on every refresh after a CustomDomain attached. Stacks made by " +
      "older versions keep the value they recorded.",
    type: "string | undefined",
    deprecated: "Use the `hostname` of the {@link CustomDomain}.",
    kept: true,
  },
} as const satisfies Readonly<Record<string, AppField>>;
