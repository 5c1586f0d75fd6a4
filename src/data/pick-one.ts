import type * as pulumi from "@pulumi/pulumi";
import { HostingInputError } from "../api/errors";

/** Exactly one of `{ id }` or `{ name }`, as the single-object data sources take them. */
export type ById =
  | {
      /** The object's id. */
      id: string;
      /** Not with `id`. */
      name?: undefined;
    }
  | {
      /** The object's name; an error when several have it (pass `id` then). */
      name: string;
      /** Not with `name`. */
      id?: undefined;
    };

/** {@link ById} as Inputs. */
export type ByIdInput =
  | {
      /** The object's id. */
      id: pulumi.Input<string>;
      /** Not with `id`. */
      name?: undefined;
    }
  | {
      /** The object's name; an error when several have it (pass `id` then). */
      name: pulumi.Input<string>;
      /** Not with `name`. */
      id?: undefined;
    };

/** The one item matching by id or name; an error naming what there is when none or several. */
export function pickOne<T extends { id: string; name?: string }>(
  fn: string,
  what: string,
  items: T[],
  by: ById,
): T {
  const [key, want] = by.id !== undefined ? (["id", by.id] as const) : (["name", by.name] as const);
  const found = items.filter((x) => x[key] === want);
  if (found.length === 1) return found[0];
  const names = items.map((x) => x.name).join(", ") || "none";
  throw new HostingInputError(
    key,
    found.length === 0
      ? `${fn}: no ${what} with ${key} ${JSON.stringify(want)}; ${what}s here: ${names}`
      : `${fn}: ${found.length} ${what}s are named ${JSON.stringify(want)}; pass { id } instead`,
  );
}
