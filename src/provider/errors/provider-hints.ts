import { HOW_TO_SET } from "../../api/credentials";
import { HostingError } from "../../api/errors/hosting-error";

/*
 * The client speaks no Pulumi: its errors name its own options (apiUrl, token). The provider's
 * errors say which stack setting to fix, added here by error `code` (never read off a message).
 * One function for resources and data sources alike.
 */

const API_URL =
  "check hosting:apiUrl (or HOSTING_API_URL, or the account's apiUrl in hosting:accounts)";

/** The provider's advice for an error, by its stable code; undefined when it has none. */
export function providerHint(err: unknown): string | undefined {
  if (!HostingError.isInstance(err)) return undefined;
  switch (err.code) {
    case "HOSTING_UNAUTHORIZED":
      return `check hosting:token: ${HOW_TO_SET["hosting:token"]}`;
    case "HOSTING_REDIRECTED":
    case "HOSTING_CONNECTION_FAILED":
    case "HOSTING_CONNECT_TIMEOUT":
      return API_URL;
    case "HOSTING_BAD_RESPONSE":
      // The whole body, not one field, did not fit: most often a URL that is not the API's.
      return (err as { fieldPath?: unknown }).fieldPath === "" ? API_URL : undefined;
    case "HOSTING_REPLY_TOO_LARGE":
      return "raise hosting:maxResponseMiB (or HOSTING_MAX_RESPONSE_MIB) if such a reply is expected";
    default:
      return undefined;
  }
}

const HINTED = Symbol("pulumi-hosting.provider-hint");

/** Adds the provider's advice to an error's message (and stack), once; returns the error. */
export function withProviderHint<E>(err: E): E {
  const hint = providerHint(err);
  if (hint === undefined) return err;
  const e = err as unknown as Error & { [HINTED]?: true };
  if (e[HINTED]) return err;
  const before = e.message;
  e.message = `${before}; ${hint}`;
  if (e.stack) e.stack = e.stack.replace(before, e.message);
  Object.defineProperty(e, HINTED, { value: true, enumerable: false });
  return err;
}

/** The same methods, each adding the provider's advice to what it throws. */
export function withProviderHints<M extends Record<string, (...args: never[]) => Promise<unknown>>>(
  methods: M,
): M {
  const out: Record<string, unknown> = {};
  for (const [name, fn] of Object.entries(methods)) {
    out[name] = (...args: never[]) =>
      fn(...args).catch((err: unknown) => Promise.reject(withProviderHint(err)));
  }
  return out as M;
}
