import { z } from "zod";
import { SUBDOMAIN_PATTERN, type AppManifest } from "../api/wire";
import { assertType, besides, type Matches } from "../base";
import { manifestSettings } from "./setting-rules";

/**
 * How the service reads the App's manifest (`hosting.json` at the archive root, the app's
 * settings on POST /apps; see the README's Assumptions), held to {@link AppManifest}, which the
 * App's manifest (src/provider/app/manifest.ts) is held to as well.
 */
export const manifestSchema = z.strictObject(
  // A plain setting the record keeps is read by its default's type; those written here have limits.
  besides(
    {
      name: z.string().min(1).max(63),
      ram: z.number().int().positive().optional(),
      vcpu: z.number().int().positive().optional(),
      entrypoint: z.string().min(1).optional(),
      subdomain: z.string().regex(SUBDOMAIN_PATTERN).optional(),
      description: z.string().max(500).optional(),
      custom_command: z.string().min(1).optional(),
      runtime: z
        .strictObject({ language: z.string().min(1), version: z.string().min(1) })
        .optional(),
    },
    manifestSettings,
  ),
);

export type Manifest = z.infer<typeof manifestSchema>;

// It reads every setting the App is assumed to send, as that type: a plain one once world.ts
// keeps it, another by a rule written here.
assertType<
  Matches<
    Manifest,
    AppManifest,
    "APP_SETTING_DEFAULTS (src/emulator/world.ts), or for a setting of another type manifestSchema (in this file)"
  >
>(true);
