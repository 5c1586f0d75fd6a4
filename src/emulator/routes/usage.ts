import { series } from "../rng";

/** ProjectInfo over a window: one point per step (at most 60 points), the same for the same key. */
export function projectInfo(projectId: string, minutes: number) {
  const points = Math.min(minutes, 60);
  const key = `${projectId}:${minutes}`;
  return {
    ram: series(`${key}:ram`, points, 50, 450),
    vcpu: series(`${key}:vcpu`, points, 0, 1),
    storage: 1024 * 1024 * (10 + (projectId.charCodeAt(0) % 50)),
    network_receive: series(`${key}:rx`, points, 0, 5000),
    network_send: series(`${key}:tx`, points, 0, 5000),
  };
}
