import { HostingApiError, type ApiErrorDetails } from "./api-error";

/** 3xx: the API never redirects, so the URL points somewhere else (a web page, http vs https). */
export class HostingRedirectError extends HostingApiError {
  /** Where the server pointed, scrubbed like every server-supplied string. */
  readonly location?: string;

  constructor(details: ApiErrorDetails & { location?: string }) {
    const to = details.location ? ` to ${details.location}` : "";
    super({ ...details, bodyMessage: `redirected${to}` }, "HOSTING_REDIRECTED", {
      option: "apiUrl",
      advice:
        "the client does not follow redirects: check that the apiUrl option is the API's base URL",
    });
    this.location = details.location;
  }
}
