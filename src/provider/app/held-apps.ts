/*
 * Which apps resources of this deployment already hold, as the engine's diffs reveal them (one
 * provider host process serves a whole deployment). Pulumi replaces create-first: the new
 * resource is created while the old one still holds its app, and the old one is deleted after.
 * A replacement of an App that carries `adoptId` must therefore not adopt that id again (the
 * delete that follows would remove the app it just took): it creates a new app from `source`,
 * as for any App. An id held by a resource that is not being replaced is not adopted at all.
 */

type Fate = "kept" | "replaced";

const held = new Map<string, Fate>();

export function noteHeld(id: string, replaced: boolean): void {
  if (id) held.set(id, replaced ? "replaced" : "kept");
}

export function heldFate(id: string): Fate | undefined {
  return held.get(id);
}
