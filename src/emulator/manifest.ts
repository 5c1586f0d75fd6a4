import { z } from "zod";
import { SUBDOMAIN_PATTERN } from "../api/wire";

/**
 * How the service reads the App's manifest (`hosting.json` at the archive root, the app's
 * settings on POST /apps; see the README's Assumptions). The App writes it
 * (src/provider/app/manifest.ts); test/provider/manifest-shape.test.ts keeps the two alike.
 */
export const manifestSchema = z.strictObject({
  name: z.string().min(1).max(63),
  ram: z.number().int().positive().optional(),
  vcpu: z.number().int().positive().optional(),
  entrypoint: z.string().min(1).optional(),
  subdomain: z.string().regex(SUBDOMAIN_PATTERN).optional(),
  description: z.string().max(500).optional(),
  custom_command: z.string().min(1).optional(),
  runtime: z.strictObject({ language: z.string().min(1), version: z.string().min(1) }).optional(),
});

export type Manifest = z.infer<typeof manifestSchema>;
