/**
 * A DNS hostname as the service accepts it for a custom domain: lower case, no scheme or port.
 * Internationalised names go in their punycode form, top-level domain included
 * (`example.xn--p1ai`).
 */
export const HOSTNAME_PATTERN =
  /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+([a-z]{2,63}|xn--[a-z0-9-]{1,59})$/;

/** A platform subdomain label. */
export const SUBDOMAIN_PATTERN = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;

/** The form both the provider and the emulator compare domains in. */
export function normalizeHostname(raw: string): string {
  return raw.trim().toLowerCase().replace(/\.$/, "");
}
