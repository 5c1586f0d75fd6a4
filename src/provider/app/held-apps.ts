/*
 * Which apps resources of this deployment already hold, as the engine's diffs reveal them (one
 * provider host process serves a whole deployment). Pulumi replaces create-first: the new
 * resource is created while the old one still holds its app, and the old one is deleted after.
 * A replacement of an App that carries `adoptId` must therefore not adopt that id again (the
 * delete that follows would remove the app it just took): it creates a new app from `source`,
 * as for any App. An id held by a resource that is not being replaced is not adopted at all.
 * And an app adopted in this deployment is not deleted in it: that delete can only be another
 * resource's letting go (a resource renamed into one that adopts its app). An app a create of
 * this deployment made or took is held too: a later create must not take it as its own.
 */

type Fate = "kept" | "replaced" | "adopted" | "created";

const held = new Map<string, Fate>();

export function noteHeld(id: string, fate: Fate): void {
  if (id) held.set(id, fate);
}

export function heldFate(id: string): Fate | undefined {
  return held.get(id);
}
