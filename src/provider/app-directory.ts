import type { HostingClient } from "../api/client";
import type { AppListEntry } from "../api/schemas";
import { appById } from "./app-index";

/*
 * Reads of many apps in one deployment share one GET /apps: a call made while another is in
 * flight joins it, and a settled answer serves for a second. Refreshing N apps costs a handful
 * of list calls, not N. Every mutation forgets the cached answer.
 */

const MAX_AGE_MS = 1000;

interface Shared {
  promise: Promise<AppListEntry[]>;
  settledAt?: number;
}

const shared = new WeakMap<HostingClient, Shared>();

export function listAppsShared(client: HostingClient): Promise<AppListEntry[]> {
  const hit = shared.get(client);
  if (hit && (hit.settledAt === undefined || Date.now() - hit.settledAt < MAX_AGE_MS)) {
    return hit.promise;
  }
  const entry: Shared = { promise: client.listApps() };
  shared.set(client, entry);
  entry.promise.then(
    () => (entry.settledAt = Date.now()),
    () => shared.get(client) === entry && shared.delete(client),
  );
  return entry.promise;
}

export async function findApp(client: HostingClient, appId: string) {
  return appById(await listAppsShared(client), appId)?.app;
}

export function forgetApps(client: HostingClient): void {
  shared.delete(client);
}
