import { z } from "zod";
import { assertType } from "../../base";
import { idInput } from "../../inputs";
import { triggers } from "../actions/action-schema";
import type { SameKeys, SchemaKeys } from "../fields";
import type { databaseSetupRetryFields } from "./fields";

/** Inputs of DatabaseSetupRetry. */
export const databaseSetupRetryInputSchema = z.strictObject({
  databaseId: idInput("databaseId", "pass a database id, e.g. from getDatabase()"),
  triggers,
});

// The rules and the declaration (fields.ts) name the same fields.
assertType<
  SameKeys<
    keyof typeof databaseSetupRetryInputSchema.shape,
    SchemaKeys<typeof databaseSetupRetryFields>
  >
>(true);
