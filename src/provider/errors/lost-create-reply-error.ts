import { HostingError } from "../../api/wire";

/**
 * The reply to POST /apps was lost and the provider could not tell which app, if any, the request
 * made: none appeared, several did, or the app list could not be read. The message says what to
 * do; `candidates` lists the new apps of that name that were seen.
 */
export class LostCreateReplyError extends HostingError {
  constructor(
    message: string,
    readonly candidates: readonly string[],
    cause: unknown,
  ) {
    super(message, "HOSTING_CREATE_REPLY_LOST", { cause });
  }
}
