import { HostingError, type ClientFix } from "./hosting-error";

/** What an error reply carries; the fields of {@link HostingApiError}. */
export interface ApiErrorDetails {
  /** The HTTP status, e.g. 404. */
  status: number;
  /** The `error` field of the body, or a short snippet of a body that was not JSON. */
  bodyMessage: string;
  /** HTTP method of the request. */
  method: string;
  /** Path of the request, relative to the API URL. */
  path: string;
  /** The request id the service sent back, for its support. */
  requestId?: string;
  /** The setting the service refused (a 400, 409 or 422 whose words name one), by its wire name. */
  property?: string;
  /** What to do about it, added to the message. */
  hint?: string;
}

/** The API answered with an error status. Subclasses narrow it by status. */
export class HostingApiError extends HostingError {
  /** The HTTP status, e.g. 404. */
  readonly status: number;
  /** The `error` field of the body, or a short snippet of a body that was not JSON. */
  readonly bodyMessage: string;
  /** HTTP method of the request. */
  readonly method: string;
  /** Path of the request, relative to the API URL. */
  readonly path: string;
  /** The request id the service sent back, for its support. */
  declare readonly requestId?: string;
  /**
   * The setting the service refused, when its words name one (a 400, 409 or 422): its wire name, such
   * as `runtime` or `custom_command`; the provider's errors carry the input's name instead.
   */
  declare readonly property?: string;

  /**
   * `hint` says what to check, for statuses whose usual cause is known; as a {@link ClientFix}
   * it names the client option and is kept as `fix`.
   */
  constructor(details: ApiErrorDetails, code = "HOSTING_API_ERROR", hint?: string | ClientFix) {
    const rid = details.requestId ? ` (request id ${details.requestId})` : "";
    const about = details.property ? `; the service refused \`${details.property}\`` : "";
    const own = typeof hint === "string" ? hint : hint?.advice;
    const hints = [own, details.hint].filter((h) => h);
    const fix = about + hints.map((h) => `; ${h}`).join("");
    super(
      `${details.method} ${details.path} failed with ${details.status}: ${details.bodyMessage}${rid}${fix}`,
      code,
      typeof hint === "object" ? { fix: hint } : undefined,
    );
    this.status = details.status;
    this.bodyMessage = details.bodyMessage;
    this.method = details.method;
    this.path = details.path;
    // Only when known: an error prints no `requestId: undefined`.
    if (details.requestId !== undefined) this.requestId = details.requestId;
    if (details.property !== undefined) this.property = details.property;
  }
}
