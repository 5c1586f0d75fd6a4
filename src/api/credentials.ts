import { HostingConfigError } from "./errors";

/*
 * Checks of the API URL and token. The problems are described, never quoted: a token pasted
 * where the URL goes must not come back in an error message. Each problem is a phrase the
 * caller puts after the name of the setting it read (the client: its options; code that
 * configures the client its own way: its own settings).
 */

const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

/** Whether a value has the shape of an API token (a JWT): used to spot a token in the wrong place. */
export function looksLikeToken(value: string): boolean {
  return JWT_SHAPE.test(value.trim());
}

/** Why `token` is not usable as an API token, or undefined when it has the shape of a JWT. */
export function tokenProblem(token: unknown): string | undefined {
  if (typeof token !== "string") return token === undefined ? "is missing" : "must be text";
  if (token.trim().length === 0) return "is missing";
  if (looksLikeToken(token)) return undefined;
  const asUrl = /^\s*https?:\/\//i.test(token) ? " (it looks like a URL)" : "";
  return `does not look like a JWT${asUrl}: an API token is three base64url parts joined by dots, without spaces or line breaks inside`;
}

/** Fails, without echoing the token, unless it has the shape of a JWT. */
export function assertTokenShape(token: unknown, source = "token"): asserts token is string {
  const problem = tokenProblem(token);
  if (problem) {
    throw new HostingConfigError(
      `The Hosting API ${source} ${problem}. ` +
        "Copy the API token from the API-token section of the dashboard's account settings.",
    );
  }
}

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);

export function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK.has(hostname) || /^127(\.\d{1,3}){3}$/.test(hostname);
}

// eslint-disable-next-line no-control-regex -- control characters are exactly what we refuse
const INNER_SPACE = /[\s\u0000-\u001f\u007f-\u009f]/;

/** A vetted API URL, or the problem with it (a phrase without the value). */
export type ApiUrlCheck =
  { url: URL; problem?: undefined } | { url?: undefined; problem: string; insecure?: boolean };

/**
 * Vets the API URL: https, or http only on loopback unless `allowInsecureHttp`; no credentials,
 * query or fragment; no spaces or control characters (URL parsing would silently drop some).
 * Surrounding spaces are ignored. `insecure` marks the one problem `allowInsecureHttp` lifts.
 */
export function checkApiUrl(apiUrl: unknown, allowInsecureHttp = false): ApiUrlCheck {
  if (typeof apiUrl !== "string") {
    return { problem: apiUrl === undefined ? "is missing" : "must be text" };
  }
  const text = apiUrl.trim();
  if (text.length === 0) return { problem: "is missing" };
  const swapped = looksLikeToken(text)
    ? " (it looks like an API token: keep the token in the token setting, never in the URL)"
    : "";
  if (INNER_SPACE.test(text)) {
    return { problem: `contains spaces or control characters${swapped}` };
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { problem: `is not a URL (expected https://host or https://host/path)${swapped}` };
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    return { problem: `must start with https:// (expected https://host)${swapped}` };
  }
  if (url.username || url.password) {
    return {
      problem: "must not carry credentials (a user name or password before @); use the token",
    };
  }
  if (url.search || url.hash || text.endsWith("?") || text.endsWith("#")) {
    return { problem: "must not have a query (?...) or fragment (#...): give the base URL only" };
  }
  if (url.protocol === "http:" && !allowInsecureHttp && !isLoopbackHost(url.hostname)) {
    return {
      problem:
        "must use https: plain http would send the token unencrypted, and is allowed only to a " +
        "loopback host (localhost, 127.0.0.1, ::1) unless insecure http is allowed explicitly",
      insecure: true,
    };
  }
  return { url };
}

/** Parses and vets the API URL (see {@link checkApiUrl}); errors name the client's options. */
export function parseApiUrl(apiUrl: unknown, allowInsecureHttp = false): URL {
  const checked = checkApiUrl(apiUrl, allowInsecureHttp);
  if (checked.url) return checked.url;
  if (apiUrl === undefined || apiUrl === "") {
    throw new HostingConfigError(
      "The Hosting API URL is missing: pass the apiUrl option, e.g. " +
        "new HostingClient({ apiUrl: process.env.HOSTING_API_URL, token }).",
    );
  }
  const fix = checked.insecure ? " (pass allowInsecureHttp: true for a trusted network)" : "";
  throw new HostingConfigError(`The Hosting API URL ${checked.problem}${fix}.`);
}
