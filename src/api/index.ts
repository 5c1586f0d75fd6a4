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
export { RequestLimiter } from "./limiter";
export type { RequestLimiterOptions, Permit } from "./limiter";
/** The time source and timers a limiter uses: the package's one clock type. */
export type { Clock as LimiterClock } from "../base";
export { DEFAULT_RETRY_POLICY } from "./retry";
export type { RetryEvent, RetryPolicy } from "./retry";
export {
  rateLimitInfo,
  type RateLimitInfo,
  type Headers as ResponseHeaders,
} from "./rate-limit-headers";
export {
  HostingError,
  HostingInputError,
  HostingConfigError,
  HostingApiError,
  BadRequestError,
  AuthenticationError,
  PermissionDeniedError,
  RetentionPeriodError,
  NotFoundError,
  ConflictError,
  UnprocessableEntityError,
  RateLimitError,
  ServerError,
  HostingConnectionError,
  HostingTimeoutError,
  HostingResponseError,
  HostingReplyTooLargeError,
  HostingRedirectError,
  LimiterHoldError,
} from "./errors";
export type {
  LostReply,
  ClientFix,
  ApiErrorDetails,
  WaitLimit,
  ConnectionErrorDetails,
  TimeoutPhase,
  HoldReason,
} from "./errors";
export type * from "./types";
