import { createHash } from "node:crypto";
import { boundedMemo } from "../base";

/*
 * Whose object it is. Every resource records the account it was made under and the service it
 * lives on; an object of one account is never taken, adopted or declared gone under another.
 *
 * The rule for "same account", from what the spec offers: the token is a JWT (spec §5.1), and a
 * JWT names its holder in the `sub` claim (with `iss`, its issuer, when present). Two tokens of
 * one subject are one account: a rotated token changes nothing. A token whose payload names no
 * subject is its own account: a new such token counts as another account. The service (the API
 * URL) is recorded for messages, not compared: the same subject at another spelling of the URL
 * is the same account, and the emulator's URL changes with its port.
 *
 * Only a digest is recorded, never the token or the claims themselves.
 */

/** The owner of an object, as recorded in state. */
export interface Owner {
  /** `sub-<digest>` of the token's issuer and subject, or `token-<digest>` of a token with none. */
  account: string;
  /** The API URL the object was made through. */
  service: string;
}

/** The property of every resource's state that holds its {@link Owner}. */
export const OWNER_KEY = "__owner";

const digest = (text: string) =>
  createHash("sha256").update("pulumi-hosting account v1\u0000").update(text).digest("hex");

/** The issuer and subject a JWT's payload names, or undefined (not a JWT, no subject). */
function subjectOf(token: string): string | undefined {
  const parts = token.trim().split(".");
  if (parts.length !== 3 || !/^[A-Za-z0-9_-]+$/.test(parts[1])) return undefined;
  let payload: unknown;
  try {
    payload = JSON.parse(Buffer.from(parts[1], "base64url").toString("utf8"));
  } catch {
    return undefined;
  }
  if (payload === null || typeof payload !== "object" || Array.isArray(payload)) return undefined;
  const { iss, sub } = payload as Record<string, unknown>;
  if (typeof sub !== "string" || sub === "") return undefined;
  return `${typeof iss === "string" ? iss : ""}\u0000${sub}`;
}

/** The account a token acts for (see above). */
function accountOf(token: string): string {
  const subject = subjectOf(token);
  return subject === undefined
    ? `token-${digest(`token\u0000${token.trim()}`).slice(0, 24)}`
    : `sub-${digest(`sub\u0000${subject}`).slice(0, 24)}`;
}

/**
 * Accounts already worked out: every call of every resource asks, and a JWT's decoding and digest
 * cost about 0.1 ms each time.
 */
const accountOfToken = boundedMemo(accountOf);

/** The owner of what a client with this URL and token makes. */
export function ownerOf(apiUrl: string, token: string): Owner {
  const account = accountOfToken(token);
  return { account, service: apiUrl };
}

/** A recorded owner read back from state; anything malformed counts as none recorded. */
export function recordedOwner(props: Record<string, unknown>): Owner | undefined {
  const o = props[OWNER_KEY];
  if (o === null || typeof o !== "object") return undefined;
  const { account, service } = o as Record<string, unknown>;
  if (typeof account !== "string" || !/^(sub|token)-[0-9a-f]{24}$/.test(account)) return undefined;
  return { account, service: typeof service === "string" ? service : "" };
}

/** How an owner is named in messages: the account's short digest and its service. */
export function describeOwner(o: Owner): string {
  const kind = o.account.startsWith("sub-") ? "account" : "token";
  const short = o.account.slice(o.account.indexOf("-") + 1, o.account.indexOf("-") + 13);
  return `${kind} ${short}${o.service ? ` on ${o.service}` : ""}`;
}
