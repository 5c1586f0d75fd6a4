/*
 * The data room's door, for the native plugin (src/native/), which serves the data sources as
 * invokes: the table of what each one does, where it is declared. The package root opens the
 * public functions itself (they load this table on their first call).
 */
export { calls, type Calls } from "./calls";
