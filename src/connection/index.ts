/*
 * How the data sources and the provider reach the service: the `hosting:*` stack config and the
 * environment, named accounts, wire limits, the clients they make, hints in their errors, and
 * progress lines of long waits.
 */
export * from "./accounts";
export * from "./connection";
export * from "./environment";
export * from "./error-hints";
export * from "./hints";
export * from "./owner";
export * from "./pool";
export * from "./program-clients";
export * from "./progress";
export * from "./resolve";
export * from "./settings";
export * from "./stack-config";
export * from "./wire-limits";
