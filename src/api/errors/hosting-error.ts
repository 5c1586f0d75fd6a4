import { inspect, type InspectOptions } from "node:util";

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
 * `isInstance`) rather than on messages. `isInstance` works across two loaded copies of the
 * package, where `instanceof` does not.
 */
export class HostingError extends Error {
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
    const kinds: string[] = [];
    for (let c: unknown = new.target; typeof c === "function" && c !== Error;) {
      kinds.push((c as { name: string }).name);
      c = Object.getPrototypeOf(c);
    }
    Object.defineProperty(this, KINDS, { value: kinds, enumerable: false });
    keepMessageOnce(this);
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

  /**
   * Whether `value` is an error of this class (or a subclass), even when it comes from another
   * loaded copy of the package: `NotFoundError.isInstance(err)`.
   */
  static isInstance<T extends abstract new (...args: never[]) => HostingError>(
    this: T,
    value: unknown,
  ): value is InstanceType<T> {
    if (typeof value !== "object" || value === null) return false;
    const kinds = (value as { [KINDS]?: unknown })[KINDS];
    return Array.isArray(kinds) && kinds.includes(this.name);
  }
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
