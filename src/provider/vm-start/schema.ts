import { z } from "zod";
import { assertType } from "../../base";
import { idInput } from "../../inputs";
import { triggers } from "../actions/action-schema";
import type { SameKeys, SchemaKeys } from "../fields";
import type { vmStartFields } from "./fields";

/** Inputs of VmStart. */
export const vmStartInputSchema = z.strictObject({
  vmId: idInput("vmId", "pass the id of one of your VMs"),
  triggers,
});

// The rules and the declaration (fields.ts) name the same fields.
assertType<SameKeys<keyof typeof vmStartInputSchema.shape, SchemaKeys<typeof vmStartFields>>>(true);
