import { HostingError } from "../api/wire";

/*
 * The provider's own errors, all under the client's {@link HostingError}: one `code` to match on,
 * and `instanceof` that holds across two loaded copies of the package.
 */

/**
 * A create refused because an app of the same name, made shortly before and held by no resource
 * of the deployment, exists: most likely one an interrupted deployment made. `candidates` lists
 * those apps; the message names them and the ways out.
 */
export class LeftOverAppError extends HostingError {
  static override readonly code = "HOSTING_APP_LEFT_OVER";

  constructor(
    message: string,
    readonly candidates: readonly string[],
  ) {
    super(message, LeftOverAppError.code);
  }
}

/**
 * The reply to POST /apps was lost and the provider could not tell which app, if any, the request
 * made: none appeared, several did, or the app list could not be read. The message says what to
 * do; `candidates` lists the new apps of that name that were seen.
 */
export class LostCreateReplyError extends HostingError {
  static override readonly code = "HOSTING_CREATE_REPLY_LOST";

  constructor(
    message: string,
    readonly candidates: readonly string[],
    cause: unknown,
  ) {
    super(message, LostCreateReplyError.code, { cause });
  }
}

/**
 * A failure after the service named the app: the handler keeps the app in the stack ("created
 * but failed to initialise") under `appId`, never leaves it behind.
 */
export class AppMadeError extends HostingError {
  static override readonly code = "HOSTING_APP_MADE";

  constructor(
    message: string,
    readonly appId: string,
    cause?: unknown,
  ) {
    super(message, AppMadeError.code, cause === undefined ? undefined : { cause });
  }
}

/**
 * The service named an app for a create that the create does not take: gone when the create
 * looked (deleted by someone else meanwhile), or not made by it. Nothing is kept in the stack:
 * it would hold an app that does not exist, or one a later destroy must not delete. `appId` is
 * the app that was named.
 */
export class AppNotTakenError extends HostingError {
  static override readonly code = "HOSTING_APP_NOT_TAKEN";

  constructor(
    message: string,
    readonly appId: string,
  ) {
    super(message, AppNotTakenError.code);
  }
}

/**
 * An error Pulumi reports as "created but failed to initialise": the resource stays in state.
 * Pulumi's dynamic-provider host reads `id`, `properties` and `reasons` off it.
 */
export class ResourceInitError extends HostingError {
  static override readonly code = "HOSTING_RESOURCE_INIT_FAILED";

  constructor(
    message: string,
    readonly id: string,
    readonly properties: Record<string, unknown>,
    readonly reasons: string[],
    /** The failure the message quotes, so the provider's advice can replace the client's. */
    cause?: unknown,
  ) {
    super(message, ResourceInitError.code, cause === undefined ? undefined : { cause });
  }
}

/**
 * An object recorded as made under one account, reached under another: a 404 there does not
 * mean it is gone, so it is neither dropped from the stack nor declared deleted. The message
 * names both accounts (by digest) and the ways out.
 */
export class OtherAccountError extends HostingError {
  static override readonly code = "HOSTING_OTHER_ACCOUNT";

  constructor(message: string) {
    super(message, OtherAccountError.code);
  }
}
