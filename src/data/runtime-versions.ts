import type * as pulumi from "@pulumi/pulumi";
import type { RuntimeVersion } from "../api";
import { HostingInputError } from "../api/wire";
import type { AccountOption, AccountOptionInput } from "./account-option";
import type { z } from "zod";
import { assertType, type SameShape } from "../base";
import { dataSource, outputOf } from "./data-source";
import type { runtimeVersionArgs } from "./runtime-version-calls";

export type { RuntimeVersion } from "../api";

/** Arguments of {@link getRuntimeVersions}. */
export interface GetRuntimeVersionsArgs extends AccountOption {
  /** Only this language's versions, e.g. `"node"`; all languages when omitted. */
  language?: string;
}

/** Arguments of {@link getRuntimeVersionsOutput}: {@link GetRuntimeVersionsArgs} as Inputs. */
export interface GetRuntimeVersionsOutputArgs extends AccountOptionInput {
  /** Only this language's versions, e.g. `"node"`; all languages when omitted. */
  language?: pulumi.Input<string>;
}

/**
 * Runtime versions apps can use, for one language or all.
 * @example
 * ```ts
 * const versions = await hosting.getRuntimeVersions({ language: "node" });
 * ```
 */
export const getRuntimeVersions: (
  a?: GetRuntimeVersionsArgs,
  opts?: pulumi.InvokeOptions,
) => Promise<RuntimeVersion[]> = dataSource("getRuntimeVersions", {});

/**
 * {@link getRuntimeVersions} for Inputs: an Output of the list. Feed it to
 * {@link pickRuntimeVersion} to choose one for {@link App}'s `runtime`.
 * @example
 * ```ts
 * const node = hosting
 *   .getRuntimeVersionsOutput({ language: "node" })
 *   .apply((v) => hosting.pickRuntimeVersion(v, { language: "node" }));
 * // node.language and node.version are Output<string>
 * ```
 */
export const getRuntimeVersionsOutput: (
  a?: GetRuntimeVersionsOutputArgs,
  opts?: pulumi.InvokeOutputOptions,
) => pulumi.Output<RuntimeVersion[]> = outputOf(getRuntimeVersions);

assertType<SameShape<z.input<typeof runtimeVersionArgs>, GetRuntimeVersionsArgs>>(true);

/** Options of {@link pickRuntimeVersion}. */
export interface PickRuntimeVersionOptions {
  /** The language to pick a version of, e.g. `"node"`. */
  language: string;
  /** The version the platform recommends (default) or the newest one. */
  prefer?: "recommended" | "latest";
}

/** The recommended (default) or latest version of a language; an error naming what there is. */
export function pickRuntimeVersion(
  versions: RuntimeVersion[],
  options: PickRuntimeVersionOptions,
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
    const other = prefer === "recommended" ? "latest" : "recommended";
    const fallback = ofLanguage.some((v) => v[other])
      ? `: pass prefer: "${other}"`
      : `: none is flagged ${other} either; pin one of ${ofLanguage.map((v) => v.version).join(", ")} in runtime`;
    throw new HostingInputError(
      "prefer",
      `no ${prefer} version is flagged for ${options.language}${fallback}`,
    );
  }
  return pick;
}
