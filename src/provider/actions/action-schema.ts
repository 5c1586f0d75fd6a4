import { z } from "zod";

/*
 * What the action resources' check rules share (each kind's own is in its folder's schema.ts):
 * `triggers`, any change to which runs the action again.
 */
export const triggers = z
  .array(z.unknown(), {
    error: "triggers must be a list of values; a change runs the action again",
  })
  .optional();
