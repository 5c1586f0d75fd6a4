import type { HostingClient, AppListEntry } from "../api/wire";
import { listCacheMs } from "../connection";
import { appById } from "./app-index";
import { clock } from "./clock";

/*
 * Reads of many apps in one deployment share one GET /apps: a call made while another is in
 * flight joins it, and a settled answer serves for a while (one second; HOSTING_LIST_CACHE_MS
 * sets it, e.g. 0 in tests that change the world behind the provider's back). Refreshing N apps
 * costs a handful of list calls, not N.
 *
 * Waiting for N new apps to finish setup shares the list too: each waiter asks for a list that
 * was requested after a given moment (for its first look, after that look began; later, after
 * its app existed and no older than its poll interval), so one call serves every waiter of that
 * interval and nobody's cache is thrown away.
 */

const DEFAULT_MAX_AGE_MS = 1000;

const maxAgeMs = () => listCacheMs(DEFAULT_MAX_AGE_MS);

interface Shared {
  promise: Promise<AppListEntry[]>;
  /** When the request was sent: everything acknowledged before then is in the answer. */
  startedAt: number;
  settledAt?: number;
}

const shared = new WeakMap<HostingClient, Shared>();

function start(client: HostingClient): Shared {
  const entry: Shared = { promise: client.listApps(), startedAt: clock.now() };
  shared.set(client, entry);
  entry.promise.then(
    () => (entry.settledAt = clock.now()),
    () => shared.get(client) === entry && shared.delete(client),
  );
  return entry;
}

/** The shared list: one in flight, or settled within the cache lifetime. */
export function listAppsShared(client: HostingClient): Promise<AppListEntry[]> {
  const hit = shared.get(client);
  if (hit && (hit.settledAt === undefined || clock.now() - hit.settledAt < maxAgeMs())) {
    return hit.promise;
  }
  return start(client).promise;
}

/**
 * Fresh lists are at most one in flight plus one queued, started at least this long apart: a
 * burst of creates each needing a list newer than the one in flight shares the next one instead
 * of starting its own. While the rate limit holds requests back, every list costs a create its
 * turn: the gap is then 250 ms. Otherwise a list costs nothing but itself, and a create waiting
 * for one (its "before" view, its first look) is held only 50 ms; `pulumi up` runs a handful of
 * creates at once, and each waits for two lists.
 */
const BUSY_GAP_MS = 250;
const IDLE_GAP_MS = 50;
const gapMs = (client: HostingClient) => (client.congested ? BUSY_GAP_MS : IDLE_GAP_MS);
const queued = new WeakMap<HostingClient, Promise<AppListEntry[]>>();

/** A shared list requested at or after `since` (ms since the epoch); starts one if needed. */
export function listAppsSince(client: HostingClient, since: number): Promise<AppListEntry[]> {
  const hit = shared.get(client);
  if (hit && hit.startedAt >= since) return hit.promise;
  if (!hit || (hit.settledAt !== undefined && clock.now() - hit.startedAt >= gapMs(client))) {
    return start(client).promise;
  }
  // The queued list starts after every caller's `since` (each is at most its call time).
  let next = queued.get(client);
  if (!next) {
    const wait = Math.max(0, hit.startedAt + gapMs(client) - clock.now());
    next = hit.promise
      .catch(() => undefined)
      .then(() => clock.sleep(wait))
      .then(() => {
        queued.delete(client);
        return start(client).promise;
      });
    queued.set(client, next);
  }
  return next;
}

export async function findApp(client: HostingClient, appId: string) {
  return appById(await listAppsShared(client), appId)?.app;
}

/** After a change that alters what the list shows (a delete, a domain): the next read re-lists. */
export function forgetApps(client: HostingClient): void {
  shared.delete(client);
}
