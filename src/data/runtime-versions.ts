import { z } from "zod";
import { HostingInputError } from "../api/errors/input-error";
import type { RuntimeVersion } from "../api/schemas";
import { parseArgs } from "../provider/validate";
import { accountArg, outputVariant, programClient, type AccountOption } from "./connection";

export type { RuntimeVersion } from "../api/schemas";

const args = z.strictObject({
  language: z.string().min(1, "language must not be empty").optional(),
  ...accountArg,
});

/** Runtime versions apps can use, for one language or all. */
export async function getRuntimeVersions(
  a: { language?: string } & AccountOption = {},
): Promise<RuntimeVersion[]> {
  const { language, account } = parseArgs("getRuntimeVersions", args, a);
  return programClient(account).listRuntimeVersions({ language });
}
export const getRuntimeVersionsOutput = outputVariant(getRuntimeVersions);

/** The recommended (default) or latest version of a language. */
export function pickRuntimeVersion(
  versions: RuntimeVersion[],
  options: { language: string; prefer?: "recommended" | "latest" },
): RuntimeVersion {
  const prefer = options.prefer ?? "recommended";
  if (prefer !== "recommended" && prefer !== "latest") {
    throw new HostingInputError("prefer", 'prefer must be "recommended" or "latest"');
  }
  const ofLanguage = versions.filter((v) => v.language === options.language);
  if (ofLanguage.length === 0) {
    const langs = [...new Set(versions.map((v) => v.language))].join(", ") || "none";
    throw new HostingInputError(
      "language",
      `no runtime versions for language ${JSON.stringify(options.language)}; available: ${langs}`,
    );
  }
  const pick = ofLanguage.find((v) => v[prefer]);
  if (!pick) {
    throw new HostingInputError(
      "prefer",
      `no ${prefer} version is flagged for ${options.language}`,
    );
  }
  return pick;
}
