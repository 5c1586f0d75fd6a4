import type { HostingClient } from "../../api/wire";

/** Longest deployment error quoted in a message: enough for a build's last lines. */
export const DEPLOY_ERROR_MAX = 600;

/**
 * The newest deployment's `error` (GET /apps/{app_id}/deploys), scrubbed of the token and cut to
 * a readable length, on one line; undefined when it has none or the list cannot be read (the
 * setup failure is reported either way).
 */
export async function newestDeployError(
  client: HostingClient,
  appId: string,
): Promise<string | undefined> {
  let deploys;
  try {
    deploys = await client.listDeployments(appId);
  } catch {
    return undefined;
  }
  // Newest by created_at; among equal (or missing) times, the later in the list.
  const time = (d: (typeof deploys)[number]) => Date.parse(d.created_at ?? "") || 0;
  const newest = deploys.reduce<(typeof deploys)[number] | undefined>(
    (best, d) => (best === undefined || time(d) >= time(best) ? d : best),
    undefined,
  );
  const text = newest?.error?.replace(/\s+/g, " ").trim();
  if (!text) return undefined;
  const clean = client.scrub(text);
  return clean.length > DEPLOY_ERROR_MAX ? `${clean.slice(0, DEPLOY_ERROR_MAX - 1)}…` : clean;
}
