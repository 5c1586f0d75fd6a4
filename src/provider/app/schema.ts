import { z } from "zod";
import { formatDotenv, dotenvProblem, HostingInputError, SUBDOMAIN_PATTERN } from "../../api/wire";
import { assertType, besides, type SameNames } from "../../base";
import type { SchemaKeys } from "../fields";
import { textRules } from "../text-rules";
import { idInput, textInput } from "../../inputs";
import { appFields } from "./fields";

const name = /^[A-Za-z0-9][A-Za-z0-9 _.-]{0,62}$/;

/*
 * Longest text settings. The settings travel in the manifest (hosting.json), which the service
 * reads up to wireAssumptions.maxManifestBytes: with these bounds the manifest stays far below
 * it (at most ~20 KB even at 3 UTF-8 bytes a character), so a check failure names the field.
 */
export const SETTING_MAX = {
  entrypoint: 1024,
  customCommand: 4096,
  description: 500,
  runtimePart: 100,
} as const;

/** env: every key and value must survive the dotenv text both npm dotenv and python-dotenv read. */
const envSchema = z
  .record(
    z.string(),
    z.string({ error: "env values must be strings; convert numbers and booleans with String()" }),
  )
  .superRefine((env, ctx) => {
    let ok = true;
    for (const [key, value] of Object.entries(env)) {
      const problem = dotenvProblem(key, value);
      if (problem) {
        ok = false;
        ctx.addIssue({ code: "custom", path: [key], message: problem });
      }
    }
    if (!ok) return;
    try {
      formatDotenv(env);
    } catch (err) {
      if (!(err instanceof HostingInputError)) throw err;
      ctx.addIssue({ code: "custom", message: err.message });
    }
  });

/**
 * App inputs as the provider receives them (camelCase, after defaults): the rules written here,
 * then a text input's rule from its declared limits (`text` in fields.ts).
 */
export const appInputSchema = z.strictObject(
  besides(
    {
      source: textInput("source", {
        required: "source is required: the path of the app's directory or of a .zip",
        empty: "source must be the path of a directory or a .zip",
      }),
      name: z
        .string({
          error:
            'name is required, e.g. name: "web" (this program sends no URN to name the app after ' +
            "its resource: upgrade pulumi-hosting in the program)",
        })
        .regex(
          name,
          "name must be 1-63 letters, digits, spaces, '.', '_' or '-', starting with a letter or digit",
        ),
      env: envSchema.optional(),
      ram: z
        .number()
        .int("ram must be a whole number of MB")
        .min(128, "ram must be at least 128 (MB)")
        .optional(),
      vcpu: z
        .number()
        .int("vcpu must be a whole number")
        .min(1, "vcpu must be at least 1")
        .optional(),
      entrypoint: textInput("entrypoint", {
        empty: "entrypoint must not be empty; omit it for the default",
        max: SETTING_MAX.entrypoint,
      }).optional(),
      subdomain: z
        .string()
        .regex(
          SUBDOMAIN_PATTERN,
          "subdomain must be lower-case letters, digits and '-', 1-63 characters, e.g. \"my-app\"",
        )
        .optional(),
      description: textInput("description", { max: SETTING_MAX.description }).optional(),
      customCommand: textInput("customCommand", {
        empty: "customCommand must not be empty; omit it for the default",
        max: SETTING_MAX.customCommand,
      }).optional(),
      // Not strict: the object pickRuntimeVersion returns (with `latest`, `recommended`) is an
      // AppRuntime to the compiler, so check takes it too and keeps only these two fields.
      runtime: z
        .object({
          language: textInput("runtime.language", {
            required: 'runtime.language is required, e.g. "node"',
            empty: 'runtime.language is required, e.g. "node"',
            max: SETTING_MAX.runtimePart,
          }),
          version: textInput("runtime.version", {
            required: "runtime.version is required; see getRuntimeVersions()",
            empty: "runtime.version is required; see getRuntimeVersions()",
            max: SETTING_MAX.runtimePart,
          }),
        })
        .optional(),
      setupTimeoutSeconds: z
        .number()
        .positive("setupTimeoutSeconds must be more than 0")
        .max(3600, "setupTimeoutSeconds must be at most 3600")
        .optional(),
      adoptId: idInput("adoptId", "pass the id of an existing app").optional(),
      /** Computed by check from the packaged archive; not set by users. */
      sourceHash: z.string().optional(),
    },
    textRules(appFields),
  ),
);

export type AppInputs = z.infer<typeof appInputSchema>;

/**
 * `setupTimeoutSeconds` when unset: how long a create waits for the setup, and how long its
 * lost-reply recovery keeps trying to read the app list.
 */
export const DEFAULT_SETUP_TIMEOUT_S = appFields.setupTimeoutSeconds.default;

// The rules and the declaration (appFields) name the same fields.
assertType<
  SameNames<
    keyof typeof appInputSchema.shape,
    SchemaKeys<typeof appFields>,
    "appInputSchema (src/provider/app/schema.ts)"
  >
>(true);
