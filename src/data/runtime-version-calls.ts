import type { RuntimeVersion } from "../api/wire";
import { z } from "zod";
import { parseArgs } from "../inputs";
import { apiCall, mockedList } from "./api-call";
import { accountArg } from "./account-arg";

/* What the runtime-version data source does (see calls.ts). */

/** The argument schema, which runtime-versions.ts holds equal to its documented type. */
export const runtimeVersionArgs = z.strictObject({
  language: z.string().min(1, "language must not be empty").optional(),
  ...accountArg,
});

export async function getRuntimeVersions(a: unknown): Promise<RuntimeVersion[]> {
  const checked = parseArgs("getRuntimeVersions", runtimeVersionArgs, a);
  return apiCall(
    "getRuntimeVersions",
    checked,
    (c) => c.listRuntimeVersions({ language: checked.language }),
    mockedList,
  );
}
