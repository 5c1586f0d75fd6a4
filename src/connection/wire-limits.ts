import type { Environment } from "./environment";
import type { StackConfig } from "./stack-config";

/*
 * The client's wire limits and the http opt-in as stack config (or environment):
 * `hosting:timeoutSeconds` is the idle limit (no byte either way), `hosting:maxResponseMiB` the
 * largest reply accepted, `hosting:allowInsecureHttp` permits plain http to a non-loopback host.
 * Values are described, never quoted, in errors (a pasted token must not come back).
 */

const LIMITS = {
  "hosting:timeoutSeconds": {
    env: "HOSTING_TIMEOUT_SECONDS",
    option: "timeoutMs",
    scale: 1000,
    // Node timers overflow past 2^31-1 ms (24.8 days) and then fire at once.
    max: 86_400,
    unit: "seconds",
  },
  "hosting:maxResponseMiB": {
    env: "HOSTING_MAX_RESPONSE_MIB",
    option: "maxResponseBytes",
    scale: 1024 * 1024,
    max: 4096,
    unit: "MiB",
  },
} as const;

export interface WireSettings {
  timeoutMs?: number;
  maxResponseBytes?: number;
  allowInsecureHttp: boolean;
  /** `HOSTING_LOG=debug`: one stderr line per HTTP attempt. */
  debugLog: boolean;
}

/** A setting from stack config, else from its environment variable; "" counts as unset. */
function valueOf(config: StackConfig, env: Environment, key: string, envName: string) {
  const v = config.get(key);
  if (v !== undefined) return { v, from: key };
  const e = env[envName];
  return e !== undefined && e.trim() !== "" ? { v: e, from: envName } : undefined;
}

/** A positive decimal number (no hex, exponent or Infinity), or why not. */
function positiveNumber(v: unknown, max: number, unit: string): number | string {
  const text = typeof v === "number" ? String(v) : typeof v === "string" ? v.trim() : undefined;
  if (text === undefined)
    return "must be a number, not " + (Array.isArray(v) ? "a list" : typeof v);
  if (!/^\d+(\.\d+)?$/.test(text)) return "is not a plain positive number";
  const n = Number(text);
  if (n <= 0) return "must be more than 0";
  if (n > max) return `must be at most ${max} ${unit}`;
  return n;
}

/** Reads the wire settings; unset limits keep the client's defaults. Problems are returned. */
export function readWireSettings(
  config: StackConfig,
  env: Environment,
): { settings: WireSettings; problems: string[] } {
  const settings: WireSettings = {
    allowInsecureHttp: false,
    debugLog: env.HOSTING_LOG === "debug",
  };
  const problems: string[] = [];
  for (const [key, s] of Object.entries(LIMITS)) {
    const got = valueOf(config, env, key, s.env);
    if (!got) continue;
    const n = positiveNumber(got.v, s.max, s.unit);
    if (typeof n === "string") {
      problems.push(
        `${got.from} ${n}: give a number of ${s.unit} (e.g. 60) with \`pulumi config set ${key} <number>\` or ${s.env}`,
      );
    } else {
      settings[s.option] = n * s.scale;
    }
  }
  const insecure = valueOf(config, env, "hosting:allowInsecureHttp", "HOSTING_ALLOW_INSECURE_HTTP");
  if (insecure) {
    const v = typeof insecure.v === "string" ? insecure.v.trim().toLowerCase() : insecure.v;
    if (v === true || v === "true") settings.allowInsecureHttp = true;
    else if (v !== false && v !== "false") {
      problems.push(
        `${insecure.from} must be true or false: set it with \`pulumi config set hosting:allowInsecureHttp true\``,
      );
    }
  }
  return { settings, problems };
}
