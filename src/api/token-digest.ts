import { createHash } from "node:crypto";

/**
 * A short digest of a token, for keys of process-wide maps (the shared limiter, the provider's
 * create lock): one account, however its API URL is spelled, without the token in memory keys.
 */
export function tokenDigest(token: string): string {
  return createHash("sha256").update(token).digest("hex").slice(0, 32);
}
