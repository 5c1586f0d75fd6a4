import { z } from "zod";

/*
 * ById (pick-one.ts) at run time, for the lazily loaded implementations; apart from the public
 * declarations, which must not name zod.
 */

/**
 * ById and `extra`: exactly one of id or name. The other may be there as undefined, as the type
 * allows (`{ id, name: undefined }`).
 */
export function byIdArgs<E extends z.ZodRawShape>(extra: E) {
  return z.union(
    [
      z.strictObject({
        id: z.string().min(1, "id must not be empty"),
        name: z.undefined().optional(),
        ...extra,
      }),
      z.strictObject({
        name: z.string().min(1, "name must not be empty"),
        id: z.undefined().optional(),
        ...extra,
      }),
    ],
    { error: "pass exactly one of { id } or { name }" },
  );
}
