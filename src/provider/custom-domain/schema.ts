import { z } from "zod";
import { HOSTNAME_PATTERN, normalizeHostname } from "../../api/wire";
import { assertType } from "../../base";
import type { SameKeys, SchemaKeys } from "../fields";
import { idInput } from "../../inputs";
import type { customDomainFields } from "./fields";

export const customDomainInputSchema = z.strictObject({
  appId: idInput("appId", "pass app.id"),
  domain: z
    .string({ error: 'domain is required, e.g. "www.example.com"' })
    .transform(normalizeHostname)
    .refine((d) => HOSTNAME_PATTERN.test(d), {
      message: "domain must be a hostname such as www.example.com (no scheme, path or port)",
    }),
  waitForActive: z.boolean().optional(),
  activeTimeoutSeconds: z
    .number()
    .positive("activeTimeoutSeconds must be more than 0")
    .max(7200, "activeTimeoutSeconds must be at most 7200")
    .optional(),
});

export type CustomDomainInputs = z.infer<typeof customDomainInputSchema>;

// The rules and the declaration (fields.ts) name the same fields.
assertType<
  SameKeys<keyof typeof customDomainInputSchema.shape, SchemaKeys<typeof customDomainFields>>
>(true);
