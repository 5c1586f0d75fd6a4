import { HostingError, type ClientFix } from "./hosting-error";

/** A success response whose body does not have the shape the spec gives. */
export class HostingResponseError extends HostingError {
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
      own?.code ?? "HOSTING_BAD_RESPONSE",
      { fix: own?.fix },
    );
    this.operation = operation;
    this.fieldPath = fieldPath;
  }
}
