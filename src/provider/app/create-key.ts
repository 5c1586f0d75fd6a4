import { createHash } from "node:crypto";
import { knownPart, type Fields } from "../fields";
import { stableJson } from "../stable-json";
import { DECIDING, type CreatedShape } from "./created-shape";
import { appFields } from "./fields";

/*
 * The Idempotency-Key of an App's create. The same logical create (same account, stack and
 * resource, same inputs: those declared `decidesApp`) sends the same key from every process, so a service that honours keys
 * answers a create repeated after a crash with the app the first attempt made. The key is a
 * digest: it carries neither the token (only the account's digest goes in) nor `env`.
 *
 * `generation` counts the creates of that same logical create: when the key's app is gone (the
 * stack was destroyed and is deployed again with the same inputs) or is held by another
 * resource, the next generation's key asks for a new app, and every process counts the same way.
 */

/** Where the create comes from: the resource's URN (it holds the project and the stack). */
export interface CreateOrigin {
  /** `client.accountKey`: a digest of the token, never the token. */
  account: string;
  urn: string;
}

/** Generations tried before falling back to a random key (which never replays). */
export const MAX_GENERATIONS = 8;

export function createKey(origin: CreateOrigin, shape: CreatedShape, generation: number): string {
  // Every input declared `decidesApp`, as far as its declared shape goes (stableJson leaves out
  // the unset ones): the same text as when these were listed here by hand.
  const what = Object.fromEntries(
    DECIDING.map((k) => [k, knownPart(shape[k], (appFields as Fields)[k].shape)]),
  );
  const text = stableJson([
    "pulumi-hosting create v1",
    origin.account,
    origin.urn,
    what,
    generation,
  ]);
  return `ph1-${createHash("sha256").update(text).digest("hex")}`;
}
