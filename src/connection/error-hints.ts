import { HostingError, type LostReply } from "../api/wire";
import { showableName } from "./accounts";
import { howToSet, placeOf } from "./hints";

/*
 * The client's errors end with the client user's fix (`fix`: its options). A Pulumi user sets
 * the stack's `hosting:*` config instead, so resources and data sources put the provider's
 * advice in its place: chosen by the error's stable `code` and fields (never read off a
 * message), for the account the call used.
 */

/** The API URL setting of the default connection or of a named account, for advice. */
function urlSetting(account: string | undefined): string {
  if (account === undefined) return "hosting:apiUrl (or HOSTING_API_URL)";
  const place = placeOf("apiUrl", { name: account, shown: showableName(account) });
  return `${place.key} (or ${place.env}; without either, hosting:apiUrl)`;
}

/**
 * The provider's advice for an error, by its stable code, for the default connection or the
 * named `account`; undefined when it has none.
 */
export function providerHint(err: unknown, account?: string): string | undefined {
  if (!(err instanceof HostingError)) return undefined;
  switch (err.code) {
    case "HOSTING_UNAUTHORIZED": {
      const named =
        account === undefined ? undefined : { name: account, shown: showableName(account) };
      const place = placeOf("token", named);
      return `check ${place.key}: it must be a current API token of the account; ${howToSet("token", place)}`;
    }
    case "HOSTING_REDIRECTED":
      return `redirects are not followed: check that ${urlSetting(account)} is the API's base URL`;
    case "HOSTING_CONNECTION_FAILED":
    case "HOSTING_CONNECT_TIMEOUT":
      return `check ${urlSetting(account)} and that the service is reachable`;
    case "HOSTING_BAD_RESPONSE":
      // The whole body, not one field, did not fit: most often a URL that is not the API's.
      return (err as { fieldPath?: unknown }).fieldPath === ""
        ? `check that ${urlSetting(account)} is the Hosting API's base URL`
        : undefined;
    case "HOSTING_TIMEOUT":
      return (
        "raise hosting:timeoutSeconds if the service or the link is merely slow: set it with " +
        "`pulumi config set hosting:timeoutSeconds <seconds>` or the HOSTING_TIMEOUT_SECONDS " +
        "environment variable"
      );
    case "HOSTING_REPLY_TOO_LARGE":
      return (
        "raise hosting:maxResponseMiB if such a reply is expected: set it with " +
        "`pulumi config set hosting:maxResponseMiB <MiB>` or the HOSTING_MAX_RESPONSE_MIB " +
        "environment variable"
      );
    default:
      return undefined;
  }
}

const HINTED = Symbol("pulumi-hosting.provider-hint");

/** The error with a known fix: `err` itself or one it wraps (`cause`), a few levels deep. */
function hintedSource(err: unknown, account?: string) {
  let e: unknown = err;
  for (let depth = 0; depth < 8 && e instanceof Error; depth++, e = e.cause) {
    const hint = providerHint(e, account);
    if (hint !== undefined) return { source: e as HostingError, hint };
  }
  return undefined;
}

/**
 * Puts the provider's advice (see {@link providerHint}) in an error's message, stack and
 * lost-reply facts, once: in place of the client's advice (`fix`) when there is one, else at
 * the end. An error that wraps one with advice (its `cause`, quoted in its message and its
 * init-failure `reasons`) gets the same swap. Returns the error.
 */
export function withProviderHint<E>(err: E, account?: string): E {
  const found = hintedSource(err, account);
  if (!found) return err;
  const { source, hint } = found;
  const e = err as unknown as Error & { [HINTED]?: true; lostReply?: LostReply; reasons?: unknown };
  if (e[HINTED]) return err;
  const own = source.fix ? `; ${source.fix.advice}` : undefined;
  const swapped = (text: string) =>
    own !== undefined && text.includes(own) ? text.replace(own, () => `; ${hint}`) : undefined;
  const before = e.message;
  e.message = swapped(before) ?? `${before}; ${hint}`;
  if (e.stack) e.stack = e.stack.replace(before, () => e.message);
  const failure = e.lostReply && swapped(e.lostReply.failure);
  if (e.lostReply && failure) e.lostReply = { ...e.lostReply, failure };
  if (Array.isArray(e.reasons)) {
    e.reasons = e.reasons.map((r: unknown) => (typeof r === "string" ? (swapped(r) ?? r) : r));
  }
  Object.defineProperty(e, HINTED, { value: true, enumerable: false });
  if (source !== (e as unknown)) withProviderHint(source, account);
  return err;
}
