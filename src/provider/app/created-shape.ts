import type { AppSummary } from "../../api/wire";
import { outputsFrom } from "../fields";
import { sameValue } from "../stable-json";
import { appFields, type AppField } from "./fields";
import type { AppInputs } from "./schema";

type Declared = typeof appFields;

/** The App fields declared `decidesApp`. */
type DecidingKey = {
  [K in keyof Declared]: Declared[K] extends { decidesApp: true } ? K : never;
}[keyof Declared];

/**
 * The App inputs that decide what is created (declared `decidesApp`): what a create's key
 * describes and what tells its app from others.
 */
export type CreatedShape = Pick<AppInputs, DecidingKey & keyof AppInputs>;

const declared: Readonly<Record<string, AppField>> = appFields;

/** The names of those inputs, in declaration order. */
export const DECIDING = Object.keys(declared).filter(
  (k) => declared[k].input !== undefined && declared[k].decidesApp,
) as Array<DecidingKey & keyof AppInputs>;

/** Of those, the ones the app list reports (declared `from`). */
const SHOWN = DECIDING.filter((k) => declared[k].from !== undefined);

/**
 * Whether an app of the list may have been made from this shape: every setting the shape sets
 * that the list shows (the name always) agrees; the create's fingerprint as far as the service
 * tells it.
 */
export function mayBeMadeFrom(app: AppSummary, shape: CreatedShape): boolean {
  const shown = outputsFrom(appFields, app);
  return SHOWN.every((k) => shape[k] === undefined || sameValue(shape[k], shown[k]));
}
