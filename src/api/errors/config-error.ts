import { HostingError } from "./hosting-error";

/** The client or provider is set up wrongly (URL, token); raised before any request. */
export class HostingConfigError extends HostingError {
  constructor(message: string) {
    super(message, "HOSTING_BAD_CONFIG");
  }
}
