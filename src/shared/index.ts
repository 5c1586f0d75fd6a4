/*
 * What the data sources and the provider share that loads nothing heavy: whether the program runs
 * under Pulumi's mocks, and how to read the service's "analytics is off" refusal.
 */
export * from "./analytics-off";
export * from "./under-mocks";
