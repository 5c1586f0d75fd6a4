import { homedir } from "node:os";
import { join } from "node:path";

/*
 * The one place that reads this process's environment. Each reader reads it when called, so a
 * change to process.env reaches the next call; readEnvironment's answer is a copy, so later
 * changes do not reach a connection already built.
 */

export type Environment = Readonly<Record<string, string | undefined>>;

/** The HOSTING_* variables of this process (HOSTING_API_URL, HOSTING_<NAME>_TOKEN, …). */
export function readEnvironment(): Environment {
  const out: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(process.env)) if (k.startsWith("HOSTING_")) out[k] = v;
  return Object.freeze(out);
}

/** Time between progress lines of one wait: HOSTING_PROGRESS_SECONDS, default 10. */
export function progressIntervalMs(): number {
  const s = Number(process.env.HOSTING_PROGRESS_SECONDS);
  return Number.isFinite(s) && s > 0 ? s * 1000 : 10_000;
}

/** How long a list of apps serves later reads: HOSTING_LIST_CACHE_MS, else `otherwise`. */
export function listCacheMs(otherwise: number): number {
  const v = Number(process.env.HOSTING_LIST_CACHE_MS);
  return process.env.HOSTING_LIST_CACHE_MS !== undefined && Number.isFinite(v) && v >= 0
    ? v
    : otherwise;
}

/** The folder of the package's caches: HOSTING_CACHE_DIR, else pulumi-hosting in XDG's cache. */
export function cacheDirectory(): string {
  return (
    process.env.HOSTING_CACHE_DIR ||
    join(process.env.XDG_CACHE_HOME || join(homedir(), ".cache"), "pulumi-hosting")
  );
}

/** Whether HOSTING_SOURCE_INDEX=off turns the index of file hashes off. */
export function sourceIndexOff(): boolean {
  return process.env.HOSTING_SOURCE_INDEX === "off";
}

/** The stack config the engine gives a native plugin in PULUMI_CONFIG (JSON), if any. */
export function pulumiConfigVariable(): string | undefined {
  return process.env.PULUMI_CONFIG;
}
