import { inspect, type InspectOptions } from "node:util";

/*
 * Every error class the client throws. A leaf: it imports nothing of the room, so any file may
 * import it. What makes them: status-errors.ts (an error reply), network-errors.ts (a socket's
 * failure, in words), deadline-errors.ts (a wait past the call's deadline).
 */

/**
 * The key an error carries for each class it belongs to: the class's stable code, the same in
 * every copy of the package whatever the class is called there (undici's way).
 */
const codeKey = (code: string): symbol => Symbol.for(`pulumi-hosting.error-code.${code}`);
/** How earlier releases mark their errors, and read marks: one key per class name... */
const nameKey = (name: string): symbol => Symbol.for(`pulumi-hosting.error.${name}`);
/** ...and, before those, a list of class names. */
const KINDS = Symbol.for("pulumi-hosting.error-kinds");
/** What a resource engine's serializer puts before a message each time the error passes an input. */
const SERIALIZING = /^error serializing property "[^"]*": /;

/** The facts of a reply lost after the request may have taken effect. */
export interface LostReply {
  /** What failed, in words (the error's message before the advice was added). */
  readonly failure: string;
  /** What to check before sending the request again, e.g. "call listApps() and look for …". */
  readonly check: string;
}

/**
 * The client user's fix for a failure with a known one: the {@link HostingClient} option it is
 * about and the advice the message ends with, in the client's words.
 */
export interface ClientFix {
  /** The client option to check or change, e.g. `token`, `apiUrl`, `maxResponseBytes`. */
  readonly option: string;
  /** What to do, e.g. "check the token option: it must be a current API token of the account". */
  readonly advice: string;
}

/**
 * Base of every error this package throws. `code` is stable across releases; match on it (or on
 * the class) rather than on messages. `instanceof` works across two loaded copies of the package.
 */
export class HostingError extends Error {
  /**
   * The class's stable code: the `code` its errors carry unless given another, and what
   * `instanceof` reads across copies of the package. A subclass without its own is known only
   * in its own copy.
   */
  static readonly code: string = "HOSTING_ERROR";
  /** A stable identifier of the failure, e.g. `HOSTING_NOT_FOUND`; match on it, not on messages. */
  readonly code: string;
  /**
   * True when a request that is not safe to repeat (POST, PATCH) may have been applied by the
   * service although its reply was lost (a 408 or 5xx, a dropped connection, a timeout): check
   * before sending it again. False otherwise.
   */
  mayHaveTakenEffect = false;
  /**
   * Set with `mayHaveTakenEffect`: what failed, in words, apart from the advice the message
   * adds, and what to check before sending the request again.
   */
  declare lostReply?: LostReply;
  /**
   * The client user's fix, when the failure has a known one (a refused token, a URL that is not
   * the API's, a reply past the size limit). The message ends with its advice, unless code that
   * configures the client its own way (this package's resources) put its own words there.
   */
  declare readonly fix?: ClientFix;

  constructor(message: string, code: string, options?: { cause?: unknown; fix?: ClientFix }) {
    super(message, options && "cause" in options ? { cause: options.cause } : undefined);
    this.name = new.target.name;
    this.code = code;
    if (options?.fix) this.fix = options.fix;
    markAs(this, new.target);
  }

  /**
   * `err instanceof NotFoundError` asks the error's own marks, not its prototype chain, so it
   * holds for an error made by another loaded copy of the package too (undici's way).
   */
  static override [Symbol.hasInstance](value: unknown): boolean {
    if (typeof value !== "object" || value === null) return false;
    // This copy's own classes by their prototype chain; the marks answer for other copies, and
    // only for a class with a code of its own (subclasses without one would share their base's).
    if (Function.prototype[Symbol.hasInstance].call(this, value)) return true;
    if (!Object.hasOwn(this, "code")) return false;
    const marked = value as { [key: symbol]: unknown };
    if (marked[codeKey(this.code)] === true) return true;
    // An error of a release before the codes (it has not even the root's): its class names.
    if (marked[codeKey(HostingError.code)] === true || this.name === "") return false;
    const kinds = marked[KINDS];
    return (
      marked[nameKey(this.name)] === true || (Array.isArray(kinds) && kinds.includes(this.name))
    );
  }

  /**
   * Whether `value` is an error of this class (or a subclass), even from another loaded copy of
   * the package.
   * @deprecated `instanceof` does the same now: `err instanceof NotFoundError`.
   */
  static isInstance<T extends abstract new (...args: never[]) => HostingError>(
    this: T,
    value: unknown,
  ): value is InstanceType<T> {
    return value instanceof this;
  }

  /**
   * How `console.log` and error reports print it: name, message, stack frames and the fields
   * that are set, on a few lines. Node's own error formatting is skipped: on Node 20.20 it loops
   * for minutes over a frame of the form `node_modules/@scope/file.ts`, which source maps give
   * errors raised inside a scoped package's code.
   */
  [inspect.custom](depth: number, options: InspectOptions): string {
    const head = `${this.name}: ${this.message}`;
    if (depth < 0) return `[${head}]`;
    const frames = (this.stack ?? "").split("\n").filter((l) => /^\s+at /.test(l));
    const fields: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(this)) {
      // `promise`: a runtime's note of the promise that rejected, a circular dump.
      if (v === undefined || k === "promise" || k === "name") continue;
      if (k === "mayHaveTakenEffect" && v === false) continue;
      fields[k] = v;
    }
    const causes = causeChain(this.cause);
    if (causes) fields.cause = causes;
    const opts = { ...options, depth: 2, customInspect: false, breakLength: 100 };
    return [head, ...frames].join("\n") + " " + inspect(fields, opts);
  }
}

/**
 * Marks `error` as one of `cls` and of every class `cls` extends, so `instanceof` holds for it
 * in any loaded copy of the package, and keeps its message said once. Every HostingError is
 * marked by its constructor; an error that must extend a class of its own (an engine's error
 * type, whose class the engine acts on) is marked by calling this.
 */
export function markAs(error: Error, cls: abstract new (...args: never[]) => HostingError): void {
  const kinds: string[] = [];
  const mark = (key: symbol) =>
    Object.defineProperty(error, key, { value: true, enumerable: false });
  for (let c: unknown = cls; typeof c === "function" && c !== Error;) {
    if (Object.hasOwn(c, "code")) mark(codeKey((c as typeof HostingError).code));
    // The class names, for earlier releases' `instanceof`.
    const name = (c as { name: string }).name;
    kinds.push(name);
    mark(nameKey(name));
    c = Object.getPrototypeOf(c);
  }
  Object.defineProperty(error, KINDS, { value: kinds, enumerable: false });
  keepMessageOnce(error);
}

/**
 * A resource engine's serializer prefixes `error serializing property "x": ` to the message of an
 * error each time it passes a resource input, so one failure used by three resources read like
 * three. The message keeps its own words; any other change to it (advice added later) is kept.
 */
function keepMessageOnce(error: Error): void {
  let text = error.message;
  Object.defineProperty(error, "message", {
    configurable: true,
    enumerable: false,
    get: () => text,
    set: (value: string) => {
      const prefix = SERIALIZING.exec(value);
      if (!prefix || value.slice(prefix[0].length) !== text) text = value;
    },
  });
}

/** The causes' messages, one line each, without their stacks or fields. */
function causeChain(cause: unknown): string | undefined {
  const parts: string[] = [];
  for (let c = cause, n = 0; c !== undefined && c !== null && n < 5; n++) {
    parts.push(c instanceof Error ? `${c.name}: ${c.message}` : String(c));
    c = c instanceof Error ? c.cause : undefined;
  }
  return parts.length > 0 ? parts.join(" <- ") : undefined;
}

/** Bad input caught before any request was sent; `property` names what to fix. */
export class HostingInputError extends HostingError {
  static override readonly code = "HOSTING_INVALID_INPUT";
  /** The argument or input to fix, e.g. `serviceType` or `runtime.version`. */
  readonly property: string;

  constructor(property: string, message: string) {
    super(message, HostingInputError.code);
    this.property = property;
  }
}

/** The client or provider is set up wrongly (URL, token); raised before any request. */
export class HostingConfigError extends HostingError {
  static override readonly code = "HOSTING_BAD_CONFIG";

  constructor(message: string) {
    super(message, HostingConfigError.code);
  }
}

// ---------------------------------------------------------------------------------------------
// Error replies

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
  static override readonly code: string = "HOSTING_API_ERROR";
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
   * `code` defaults to the class's own (`HOSTING_NOT_FOUND` for a {@link NotFoundError}). `hint`
   * says what to check, for statuses whose usual cause is known; as a {@link ClientFix} it names
   * the client option and is kept as `fix`.
   */
  constructor(details: ApiErrorDetails, code?: string, hint?: string | ClientFix) {
    const rid = details.requestId ? ` (request id ${details.requestId})` : "";
    const about = details.property ? `; the service refused \`${details.property}\`` : "";
    const own = typeof hint === "string" ? hint : hint?.advice;
    const hints = [own, details.hint].filter((h) => h);
    const fix = about + hints.map((h) => `; ${h}`).join("");
    super(
      `${details.method} ${details.path} failed with ${details.status}: ${details.bodyMessage}${rid}${fix}`,
      code ?? new.target.code,
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

/** 400: the request was refused as malformed or invalid. */
export class BadRequestError extends HostingApiError {}

/** 403: the token may not do this. */
export class PermissionDeniedError extends HostingApiError {}

/** 403 on backup deletion: the backup is younger than the minimum retention age. */
export class RetentionPeriodError extends PermissionDeniedError {}

/** 404: no such object for this user. */
export class NotFoundError extends HostingApiError {}

/** 409: the request conflicts with the object's current state. */
export class ConflictError extends HostingApiError {}

/** 422: the request was understood but its content is invalid. */
export class UnprocessableEntityError extends HostingApiError {}

/** 5xx: the service failed; retried before this was thrown. */
export class ServerError extends HostingApiError {}

// Each status class's own code, as its static `code` (a table: they differ in nothing else).
for (const [cls, code] of [
  [BadRequestError, "HOSTING_BAD_REQUEST"],
  [PermissionDeniedError, "HOSTING_FORBIDDEN"],
  [RetentionPeriodError, "HOSTING_BACKUP_RETENTION"],
  [NotFoundError, "HOSTING_NOT_FOUND"],
  [ConflictError, "HOSTING_CONFLICT"],
  [UnprocessableEntityError, "HOSTING_UNPROCESSABLE"],
  [ServerError, "HOSTING_SERVER_ERROR"],
] as const) {
  Object.defineProperty(cls, "code", { value: code, enumerable: false });
}

/** 401: the token is missing, malformed, expired or not accepted. */
export class AuthenticationError extends HostingApiError {
  static override readonly code: string = "HOSTING_UNAUTHORIZED";

  constructor(details: ApiErrorDetails, code = AuthenticationError.code) {
    // The client's words; code that configures the client its own way swaps in its own (`fix`).
    super(details, code, {
      option: "token",
      advice: "check the token option: it must be a current API token of the account",
    });
  }
}

/** The client option whose deadline a rate-limit wait would have passed. */
export type WaitLimit = "throttleTimeoutMs" | "overallTimeoutMs";

/**
 * 429: too many requests, still refused after the retries; or a wait the service's rate limit
 * asks for that would end past the call's deadline, failed at once rather than waited out.
 */
export class RateLimitError extends HostingApiError {
  static override readonly code: string = "HOSTING_RATE_LIMITED";
  /** How long the service asked us to wait (Retry-After or a reset time), as it asked. */
  readonly retryAfterMs?: number;
  /**
   * How much longer the call would have had to wait when it gave up, in ms; undefined when it
   * was not failed for its deadline, or when the wait had no known end.
   */
  readonly waitMs?: number;
  /** The option whose deadline the wait would have passed; undefined when none did. */
  readonly waitLimit?: WaitLimit;
  /** That option's value, in ms. */
  readonly waitLimitMs?: number;

  constructor(
    details: ApiErrorDetails & {
      retryAfterMs?: number;
      waitMs?: number;
      waitLimit?: WaitLimit;
      waitLimitMs?: number;
    },
    hint?: string,
  ) {
    super(details, RateLimitError.code, hint);
    this.retryAfterMs = details.retryAfterMs;
    this.waitMs = details.waitMs;
    this.waitLimit = details.waitLimit;
    this.waitLimitMs = details.waitLimitMs;
  }
}

/** 3xx: the API never redirects, so the URL points somewhere else (a web page, http vs https). */
export class HostingRedirectError extends HostingApiError {
  static override readonly code: string = "HOSTING_REDIRECTED";
  /** Where the server pointed, scrubbed like every server-supplied string. */
  readonly location?: string;

  constructor(details: ApiErrorDetails & { location?: string }) {
    const to = details.location ? ` to ${details.location}` : "";
    super({ ...details, bodyMessage: `redirected${to}` }, HostingRedirectError.code, {
      option: "apiUrl",
      advice:
        "the client does not follow redirects: check that the apiUrl option is the API's base URL",
    });
    this.location = details.location;
  }
}

// ---------------------------------------------------------------------------------------------
// Replies that never came whole, and replies refused

/** What a {@link HostingConnectionError} is made from. */
export interface ConnectionErrorDetails {
  /** HTTP method of the request. */
  method: string;
  /** Path of the request, relative to the API URL. */
  path: string;
  /** host:port the client was talking to. */
  address: string;
  /** What happened, in words, without the method and path. */
  what: string;
  /** The client user's fix, added to the message after `what`. */
  fix?: ClientFix;
}

/**
 * The request did not get a whole reply over the network; `cause` holds the socket error.
 * `HOSTING_CONNECTION_FAILED`: could not connect at all; `HOSTING_CONNECTION_LOST`: connected,
 * then the connection closed before a whole reply.
 */
export class HostingConnectionError extends HostingError {
  static override readonly code: string = "HOSTING_CONNECTION_FAILED";
  /** HTTP method of the request. */
  readonly method: string;
  /** Path of the request, relative to the API URL. */
  readonly path: string;
  /** host:port the client was talking to. */
  readonly address: string;

  constructor(details: ConnectionErrorDetails, cause: unknown, code = HostingConnectionError.code) {
    const fix = details.fix ? `; ${details.fix.advice}` : "";
    super(`${details.method} ${details.path}: ${details.what}${fix}`, code, {
      cause,
      fix: details.fix,
    });
    this.method = details.method;
    this.path = details.path;
    this.address = details.address;
  }
}

/** Which limit ran out: connecting, no bytes either way for a while, or the whole attempt. */
export type TimeoutPhase = "connect" | "idle" | "overall";

/** Where an attempt was when a limit ran out, for words that say what happened. */
export type AttemptStage = "sending" | "waiting" | "reading";

const TIMEOUT_CODES: Record<TimeoutPhase, string> = {
  connect: "HOSTING_CONNECT_TIMEOUT",
  idle: "HOSTING_TIMEOUT",
  overall: "HOSTING_DEADLINE_EXCEEDED",
};

/** A connect, idle or overall limit ran out; `limitMs` is the limit that did. */
export class HostingTimeoutError extends HostingConnectionError {
  /** Its errors carry the code of their phase (TIMEOUT_CODES); this one names the class. */
  static override readonly code: string = "HOSTING_TIMEOUT";
  /** Which limit ran out. */
  readonly phase: TimeoutPhase;
  /** The limit that ran out, in ms. */
  readonly limitMs: number;

  constructor(
    details: ConnectionErrorDetails & { phase: TimeoutPhase; limitMs: number },
    cause: unknown,
  ) {
    super(details, cause, TIMEOUT_CODES[details.phase]);
    this.phase = details.phase;
    this.limitMs = details.limitMs;
  }
}

/** A success response whose body does not have the shape the spec gives. */
export class HostingResponseError extends HostingError {
  static override readonly code: string = "HOSTING_BAD_RESPONSE";
  /** The client method whose reply did not fit, e.g. `listApps`. */
  readonly operation: string;
  /** Dotted path of the first field that did not fit, e.g. `[3].app.ram`. */
  readonly fieldPath: string;

  constructor(
    operation: string,
    fieldPath: string,
    problem: string,
    /** Subclasses' own code and wording; the client user's fix, added after the problem. */
    own?: { code?: string; message?: string; fix?: ClientFix },
  ) {
    const fix = own?.fix ? `; ${own.fix.advice}` : "";
    super(
      (own?.message ??
        `${operation}: unexpected response ${fieldPath ? `from the Hosting API at ${fieldPath}` : "body from the Hosting API"}: ${problem}`) +
        fix,
      own?.code ?? HostingResponseError.code,
      { fix: own?.fix },
    );
    this.operation = operation;
    this.fieldPath = fieldPath;
  }
}

const MIB = 1024 * 1024;

/** A reply past the size limit, refused while streaming (never read whole, never retried). */
export class HostingReplyTooLargeError extends HostingResponseError {
  static override readonly code: string = "HOSTING_REPLY_TOO_LARGE";
  /** The size limit, in bytes (`maxResponseBytes`). */
  readonly limitBytes: number;

  constructor(operation: string, method: string, path: string, limitBytes: number) {
    const size = limitBytes % MIB === 0 ? `${limitBytes / MIB} MiB` : `${limitBytes} bytes`;
    super(operation, "", "", {
      code: HostingReplyTooLargeError.code,
      message: `${operation}: ${method} ${path}: reply larger than ${size}, refused`,
      fix: {
        option: "maxResponseBytes",
        advice: "raise the maxResponseBytes option if such a reply is expected",
      },
    });
    this.limitBytes = limitBytes;
  }
}

// ---------------------------------------------------------------------------------------------
// Waits past a deadline

/** Why the limiter holds requests back, in words for an error. */
export type HoldReason = "pause" | "quota" | "pacing";

/** A request the limiter would hold past its deadline. The transport makes it a RateLimitError. */
export class LimiterHoldError extends HostingError {
  static override readonly code = "HOSTING_LIMITER_HOLD";

  constructor(
    /** How much longer the limiter holds requests, in ms; undefined: until an answer comes in. */
    readonly heldMs: number | undefined,
    /** What holds them: a pause the server asked for, a used-up quota, or pacing. */
    readonly reason: HoldReason,
    /** How long this request could still wait, in ms (at most 0 when its deadline is past). */
    readonly leftMs: number,
  ) {
    super(
      `the rate limiter holds requests ${heldMs === undefined ? "until an answer comes in" : `for ${heldMs} ms more`} (${reason}), past this request's deadline`,
      LimiterHoldError.code,
    );
  }
}
