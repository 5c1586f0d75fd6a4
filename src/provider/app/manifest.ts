import type { AppManifest } from "../../api/wire";
import { assertType, type Matches } from "../../base";
import type { appFields } from "./fields";
import type { AppInputs } from "./schema";

type Declared = typeof appFields;

/** The wire key an App input is sent under (its declared `wire`), or never. */
type WireKeyOf<K> = K extends keyof Declared
  ? Declared[K] extends { wire: infer W extends string }
    ? W
    : never
  : never;

/**
 * The App's manifest (`hosting.json`, see {@link AppManifest}): each input with a declared `wire`
 * key, under that key, with its checked type. Derived, so a declared setting is sent; handler.ts
 * writes it with `wireOf`.
 */
export type Manifest = { [K in keyof AppInputs as WireKeyOf<K>]: AppInputs[K] };

// What the declaration sends is what the service is assumed to read.
assertType<Matches<AppManifest, Manifest, "AppManifest (src/api/manifest.ts)">>(true);
