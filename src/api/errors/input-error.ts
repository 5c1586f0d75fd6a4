import { HostingError } from "./hosting-error";

/** Bad input caught before any request was sent; `property` names what to fix. */
export class HostingInputError extends HostingError {
  /** The argument or input to fix, e.g. `serviceType` or `runtime.version`. */
  readonly property: string;

  constructor(property: string, message: string) {
    super(message, "HOSTING_INVALID_INPUT");
    this.property = property;
  }
}
