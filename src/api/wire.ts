/*
 * The api room's door for the rest of this package. index.ts is the users' door (the client
 * package) and loads the client with undici, zod and form-data; this one loads none of them, so a
 * resource or data-source declaration can throw these errors or check these rules without
 * loading the client. Other rooms import the api room through these two files only.
 */
export type { HostingClient, HostingClientOptions } from "./client";
export { endpoints, wireAssumptions } from "./endpoints";
export type { Endpoint, EndpointName } from "./endpoints";
export { checkApiUrl, isLoopbackHost, looksLikeToken, tokenProblem } from "./credentials";
export { dotenvProblem, formatDotenv } from "./dotenv";
export { HOSTNAME_PATTERN, SUBDOMAIN_PATTERN, normalizeHostname } from "./hostname";
export { formatPath } from "./parse";
export { pathParamProblem } from "./path";
export type { RefusedProperty } from "./refusals";
export { backoffDelayMs } from "./retry";
export type { RetryEvent } from "./retry";
export { version } from "./version";
export { HostingError } from "./errors/hosting-error";
export type { LostReply } from "./errors/hosting-error";
export { HostingInputError } from "./errors/input-error";
export { HostingConfigError } from "./errors/config-error";
export { HostingApiError } from "./errors/api-error";
export { BadRequestError } from "./errors/bad-request-error";
export { ConflictError } from "./errors/conflict-error";
export { NotFoundError } from "./errors/not-found-error";
export { HostingConnectionError } from "./errors/connection-error";
export { makeApiError } from "./errors/make-api-error";
export type * from "./types";
