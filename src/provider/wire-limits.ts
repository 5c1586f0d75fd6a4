import { HostingConfigError } from "../api/errors/config-error";

/*
 * The client's wire limits as stack config (or environment): `hosting:timeoutSeconds` is the idle
 * limit (no byte either way), `hosting:maxResponseMiB` the largest reply accepted.
 */

const SETTINGS = {
  "hosting:timeoutSeconds": { env: "HOSTING_TIMEOUT_SECONDS", option: "timeoutMs", scale: 1000 },
  "hosting:maxResponseMiB": {
    env: "HOSTING_MAX_RESPONSE_MIB",
    option: "maxResponseBytes",
    scale: 1024 * 1024,
  },
} as const;

export type WireLimitKey = keyof typeof SETTINGS;

export interface WireLimits {
  timeoutMs?: number;
  maxResponseBytes?: number;
}

/** Reads each limit (stack config first, then the environment); unset ones keep the defaults. */
export function wireLimits(config: ((key: WireLimitKey) => string | undefined) | undefined) {
  const out: WireLimits = {};
  for (const [key, s] of Object.entries(SETTINGS) as Array<
    [WireLimitKey, (typeof SETTINGS)[WireLimitKey]]
  >) {
    const raw = config?.(key) || process.env[s.env];
    if (!raw) continue;
    const n = Number(raw);
    if (!Number.isFinite(n) || n <= 0) {
      throw new HostingConfigError(
        `${key} (or ${s.env}) must be a positive number, got ${JSON.stringify(raw)}: ` +
          `set it with \`pulumi config set ${key} <number>\``,
      );
    }
    out[s.option] = n * s.scale;
  }
  return out;
}
