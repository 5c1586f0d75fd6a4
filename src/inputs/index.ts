/*
 * Checking what a program passes, resource inputs and data-source arguments alike, with messages
 * that name the property and the fix. It builds on zod, so only what runs a check loads it.
 */
export * from "./input-rules";
export * from "./validate";
