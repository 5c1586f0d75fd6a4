/*
 * The api room's door for the rest of this package. index.ts is the users' door (the client
 * package) and loads the client with undici and zod (form-data with its first upload); this one
 * loads none of them, so a resource or data-source declaration can throw these errors or check
 * these rules without loading the client. Other rooms import the api room through these two files
 * only; the declarations users see (a resource's or data source's types) name index.ts, since this
 * file is not part of the package's public types.
 */
export type { HostingClient, HostingClientOptions } from "./client";
export { endpoints, wireAssumptions } from "./endpoints";
export type { Endpoint, EndpointName } from "./endpoints";
export { checkApiUrl, isLoopbackHost, looksLikeToken, tokenProblem } from "./credentials";
export { dotenvProblem, formatDotenv } from "./dotenv";
export { HOSTNAME_PATTERN, SUBDOMAIN_PATTERN, normalizeHostname } from "./hostname";
export type { AppManifest } from "./manifest";
export { formatPath } from "./parse";
export { pathParamProblem } from "./path";
export { isRefusalStatus, quotedSetting } from "./refusals";
export type { RefusedProperty } from "./refusals";
export { backoffDelayMs, isTransientError, PATIENT_RETRY_POLICY } from "./retry";
export type { RetryEvent, RetryPolicy } from "./retry";
export { version } from "./version";
export * from "./errors";
export * from "./status-errors";
export * from "./network-errors";
export * from "./deadline-errors";
export type * from "./types";
