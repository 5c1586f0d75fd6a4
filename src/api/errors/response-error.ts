import { HostingError } from "./hosting-error";

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
    /** For subclasses: their own code and wording. */
    own?: { code: string; message: string },
  ) {
    super(
      own?.message ??
        `${operation}: unexpected response from the Hosting API at ${fieldPath || "(body)"}: ${problem}`,
      own?.code ?? "HOSTING_BAD_RESPONSE",
    );
    this.operation = operation;
    this.fieldPath = fieldPath;
  }
}
