import type { RuntimeVersion } from "../api/types";
import { z } from "zod";
import { assertType, type SameShape } from "../api/type-equality";
import { parseArgs } from "../shared/validate";
import { apiCall, mockedList } from "./api-call";
import { accountArg } from "./connection";
import type { GetRuntimeVersionsArgs } from "./runtime-versions";

/* What the runtime-version data source does, loaded on its first call (see load-calls.ts). */

const args = z.strictObject({
  language: z.string().min(1, "language must not be empty").optional(),
  ...accountArg,
});
assertType<SameShape<z.input<typeof args>, GetRuntimeVersionsArgs>>(true);

export async function getRuntimeVersions(a: GetRuntimeVersionsArgs): Promise<RuntimeVersion[]> {
  const checked = parseArgs("getRuntimeVersions", args, a);
  return apiCall(
    "getRuntimeVersions",
    checked,
    (c) => c.listRuntimeVersions({ language: checked.language }),
    mockedList,
  );
}
