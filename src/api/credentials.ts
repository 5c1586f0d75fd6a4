import { HostingConfigError } from "./errors/config-error";

/** How to set each connection setting, for messages that ask the user to fix one. */
export const HOW_TO_SET = {
  "hosting:apiUrl":
    "set it with `pulumi config set hosting:apiUrl <url>` or the HOSTING_API_URL environment variable",
  "hosting:token":
    "set it with `pulumi config set --secret hosting:token <token>` or the HOSTING_TOKEN environment variable",
} as const;

const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

/** Fails, without echoing the token, unless it has the shape of a JWT. */
export function assertTokenShape(token: unknown, source = "token"): asserts token is string {
  if (typeof token !== "string" || token.length === 0) {
    throw new HostingConfigError(`The Hosting API ${source} is missing.`);
  }
  if (!JWT_SHAPE.test(token.trim())) {
    throw new HostingConfigError(
      `The Hosting API ${source} does not look like a JWT (three base64url parts joined by dots). ` +
        "Copy the API token from the API-token section of the dashboard's account settings.",
    );
  }
}

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);

export function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK.has(hostname) || /^127(\.\d{1,3}){3}$/.test(hostname);
}

/** Parses and vets the API URL: https, or http only on loopback unless explicitly allowed. */
export function parseApiUrl(apiUrl: unknown, allowInsecureHttp = false): URL {
  if (typeof apiUrl !== "string" || apiUrl.length === 0) {
    throw new HostingConfigError(
      "The Hosting API URL is missing: pass the apiUrl option, e.g. " +
        "new HostingClient({ apiUrl: process.env.HOSTING_API_URL, token }); for the provider, " +
        HOW_TO_SET["hosting:apiUrl"] +
        ".",
    );
  }
  let url: URL;
  try {
    url = new URL(apiUrl);
  } catch {
    throw new HostingConfigError(`The Hosting API URL ${JSON.stringify(apiUrl)} is not a URL.`);
  }
  if (url.username || url.password) {
    throw new HostingConfigError("The Hosting API URL must not carry credentials; use the token.");
  }
  if (url.protocol === "https:") return url;
  if (url.protocol === "http:" && (allowInsecureHttp || isLoopbackHost(url.hostname))) return url;
  throw new HostingConfigError(
    `The Hosting API URL must use https (got ${url.protocol}//${url.host}); plain http is allowed ` +
      "only for loopback hosts or with allowInsecureHttp.",
  );
}
