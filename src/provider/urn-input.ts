/*
 * Pulumi's dynamic-provider host passes a provider neither the stack nor the resource's URN, yet
 * an App's create needs them for a key that is the same in every process (create-key.ts). So the
 * App sends its URN as an input of its own: passed through check, never compared by diff (a
 * stack recorded before it had none), and read only by create.
 */

/** The input that carries the resource's URN. */
export const URN_INPUT = "__urn";

/**
 * The input that carries `pulumi:autonaming`'s proposal for the resource's name from the native
 * plugin's check to the handlers' (never sent by a program, never kept: check drops it).
 */
export const NAMING_INPUT = "__naming";
