import { z } from "zod";
import { ACCOUNT_NAME, ACCOUNT_NAME_RULE } from "../connection";

/** The optional `account` argument of every data source, checked before any request. */
export const accountArg = {
  account: z.string({ error: ACCOUNT_NAME_RULE }).regex(ACCOUNT_NAME, ACCOUNT_NAME_RULE).optional(),
};
