/**
 * A typed, resilient client for the Hosting Management API ({@link HostingClient}), its errors
 * and its wire types (snake_case, as the API sends them).
 * @module pulumi-hosting/client
 */
export { HostingClient } from "./client";
export type { HostingClientOptions, CreateAppOptions } from "./client";
export { endpointTable as endpoints, wireAssumptions } from "./endpoints";
export type { Endpoint, EndpointName, HttpMethod } from "./endpoints";
export { buildPath } from "./path";
export { formatDotenv, parseDotenv } from "./dotenv";
export { RequestLimiter, LimiterHoldError } from "./limiter";
export type { RequestLimiterOptions, LimiterClock, Permit, HoldReason } from "./limiter";
export type { RetryEvent } from "./retry";
export {
  rateLimitInfo,
  type RateLimitInfo,
  type Headers as ResponseHeaders,
} from "./rate-limit-headers";
export { HostingError } from "./errors/hosting-error";
export type { LostReply, ClientFix } from "./errors/hosting-error";
export { HostingInputError } from "./errors/input-error";
export { HostingConfigError } from "./errors/config-error";
export { HostingApiError } from "./errors/api-error";
export type { ApiErrorDetails } from "./errors/api-error";
export { BadRequestError } from "./errors/bad-request-error";
export { AuthenticationError } from "./errors/authentication-error";
export { PermissionDeniedError } from "./errors/permission-denied-error";
export { RetentionPeriodError } from "./errors/retention-period-error";
export { NotFoundError } from "./errors/not-found-error";
export { ConflictError } from "./errors/conflict-error";
export { UnprocessableEntityError } from "./errors/unprocessable-entity-error";
export { RateLimitError } from "./errors/rate-limit-error";
export type { WaitLimit } from "./errors/rate-limit-error";
export { ServerError } from "./errors/server-error";
export { HostingConnectionError } from "./errors/connection-error";
export type { ConnectionErrorDetails } from "./errors/connection-error";
export { HostingTimeoutError } from "./errors/timeout-error";
export type { TimeoutPhase } from "./errors/timeout-error";
export { HostingResponseError } from "./errors/response-error";
export { HostingReplyTooLargeError } from "./errors/reply-too-large-error";
export { HostingRedirectError } from "./errors/redirect-error";
export type * from "./types";
