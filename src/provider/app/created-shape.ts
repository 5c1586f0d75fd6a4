import type { AppSummary } from "../../api/wire";
import { outputFrom } from "../fields";
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

/** Of those, the ones the app list reports (declared `from`); the name is declared first. */
const SHOWN = DECIDING.filter((k) => declared[k].from !== undefined);

/**
 * Whether an app of the list may have been made from this shape: every setting the shape sets
 * that the list shows (the name always) agrees; the create's fingerprint as far as the service
 * tells it.
 */
export function mayBeMadeFrom(app: AppSummary, shape: CreatedShape): boolean {
  // One setting at a time, the name first: a create compares every app of the account's list
  // (200 creates of 200 apps: 40,000 apps), and most differ in name, so nothing else is read.
  return SHOWN.every(
    (k) => shape[k] === undefined || sameValue(shape[k], outputFrom(declared[k], app)),
  );
}
