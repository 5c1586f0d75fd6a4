import { series } from "../rng";

/** Lists carry the last hour in 5-minute steps: a thousand apps stay a small body. */
export const LIST_POINTS = 12;

type Usage = ReturnType<typeof compute>;
/** A window's series, and their JSON text once a list has sent them. */
type Entry = { usage: Usage; json?: string };
const cache = new Map<string, Entry>();
const CACHE_LIMIT = 20_000;

/**
 * ProjectInfo over a window: one point per step (at most `maxPoints`), the same for the same key.
 * Memoised: drawing the series is the dearest part of listing a thousand apps.
 */
export function projectInfo(projectId: string, minutes: number, maxPoints = 60): Usage {
  return entry(projectId, minutes, maxPoints).usage;
}

/**
 * The same as JSON text, kept with the series: a list sends every app's series each time, and
 * writing their numbers as text cost more than the rest of the list together.
 */
export function projectInfoJson(projectId: string, minutes: number, maxPoints = 60): string {
  const e = entry(projectId, minutes, maxPoints);
  return (e.json ??= JSON.stringify(e.usage));
}

function entry(projectId: string, minutes: number, maxPoints: number): Entry {
  const key = `${projectId}:${minutes}:${maxPoints}`;
  let hit = cache.get(key);
  if (!hit) {
    if (cache.size >= CACHE_LIMIT) cache.clear();
    hit = { usage: compute(key, projectId, Math.min(minutes, maxPoints)) };
    cache.set(key, hit);
  }
  return hit;
}

function compute(key: string, projectId: string, points: number) {
  return {
    ram: series(`${key}:ram`, points, 50, 450),
    vcpu: series(`${key}:vcpu`, points, 0, 1),
    storage: 1024 * 1024 * (10 + (projectId.charCodeAt(0) % 50)),
    network_receive: series(`${key}:rx`, points, 0, 5000),
    network_send: series(`${key}:tx`, points, 0, 5000),
  };
}
