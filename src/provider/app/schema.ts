import { z } from "zod";
import { SUBDOMAIN_PATTERN } from "../../api/hostname";

const name = /^[A-Za-z0-9][A-Za-z0-9 _.-]{0,62}$/;
const envKey = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** App inputs as the provider receives them (camelCase, after defaults). */
export const appInputSchema = z.strictObject({
  source: z
    .string({ error: "source is required: the path of the app's directory or of a .zip" })
    .min(1, "source must be the path of a directory or a .zip"),
  name: z
    .string({ error: 'name is required, e.g. name: "web"' })
    .regex(
      name,
      "name must be 1-63 letters, digits, spaces, '.', '_' or '-', starting with a letter or digit",
    ),
  env: z
    .record(
      z.string().regex(envKey, "env keys must be letters, digits and _, not starting with a digit"),
      z.string({ error: "env values must be strings" }),
    )
    .optional(),
  ram: z
    .number()
    .int("ram must be a whole number of MB")
    .min(128, "ram must be at least 128 (MB)")
    .optional(),
  vcpu: z.number().int("vcpu must be a whole number").min(1, "vcpu must be at least 1").optional(),
  entrypoint: z.string().min(1, "entrypoint must not be empty; omit it for the default").optional(),
  subdomain: z
    .string()
    .regex(
      SUBDOMAIN_PATTERN,
      "subdomain must be lower-case letters, digits and '-', 1-63 characters, e.g. \"my-app\"",
    )
    .optional(),
  description: z.string().max(500, "description must be at most 500 characters").optional(),
  customCommand: z
    .string()
    .min(1, "customCommand must not be empty; omit it for the default")
    .optional(),
  runtime: z
    .strictObject({
      language: z.string().min(1, 'runtime.language is required, e.g. "node"'),
      version: z.string().min(1, "runtime.version is required; see getRuntimeVersions()"),
    })
    .optional(),
  setupTimeoutSeconds: z
    .number()
    .positive("setupTimeoutSeconds must be more than 0")
    .max(3600, "setupTimeoutSeconds must be at most 3600")
    .optional(),
  adoptId: z.string().min(1, "adoptId must be the id of an existing app").optional(),
  /** Computed by check from the packaged archive; not set by users. */
  sourceHash: z.string().optional(),
});

export type AppInputs = z.infer<typeof appInputSchema>;
