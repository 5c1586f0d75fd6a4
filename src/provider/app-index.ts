import type { AppListEntry } from "../api/wire";

/*
 * Apps of one list answer by id. A refresh of N apps looks N ids up in the same shared answer:
 * one Map per answer (built on first lookup, dropped with the answer) instead of N linear scans.
 */
const indexes = new WeakMap<readonly AppListEntry[], Map<string, AppListEntry>>();

export function appById(list: readonly AppListEntry[], id: string): AppListEntry | undefined {
  let index = indexes.get(list);
  if (!index) {
    index = new Map(list.map((e) => [e.app.id, e]));
    indexes.set(list, index);
  }
  return index.get(id);
}
