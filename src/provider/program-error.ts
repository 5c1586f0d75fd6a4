import * as pulumi from "@pulumi/pulumi";
import { HostingInputError, markAs } from "../api/wire";

/*
 * Bad input found where the program builds a resource (a source that does not exist, a second
 * CustomDomain on one app). Thrown from a resource's constructor, it ends the program through
 * Pulumi's program runtime (`@pulumi/pulumi/cmd/run`), which prints an uncaught error with its
 * stack and `util.inspect` of its fields (in colour codes, whatever the terminal), unless it is
 * a `pulumi.RunError`: that one is printed as its message alone, once. So the error is a
 * RunError, marked as a HostingInputError: `instanceof HostingInputError` (and HostingError)
 * hold, `code` and `property` read as on any HostingInputError.
 */

/** A {@link HostingInputError} that Pulumi's program runtime prints as its message alone. */
export class ProgramInputError extends pulumi.RunError {
  /** `HOSTING_INVALID_INPUT`, as on every HostingInputError. */
  readonly code = HostingInputError.code;
  /** The argument to fix, e.g. `source` or `appId`. */
  readonly property: string;
  /** Nothing was sent: bad input is found before any request. */
  readonly mayHaveTakenEffect = false;

  constructor(property: string, message: string) {
    super(message);
    this.name = HostingInputError.name;
    this.property = property;
    markAs(this, HostingInputError);
  }
}

/** The same error, made one Pulumi's program runtime prints as its message alone. */
export const programInputError = (err: HostingInputError): ProgramInputError =>
  new ProgramInputError(err.property, err.message);
