import { z } from "zod";
import { SUBDOMAIN_PATTERN } from "./hostname";

/**
 * The app manifest (`hosting.json` at the archive root) that carries app settings on POST /apps.
 * An assumption (DESIGN.md): the spec shows no other way to send them. Shared by the App resource,
 * which writes it, and the emulator, which reads it.
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
