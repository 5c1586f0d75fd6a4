import { createHmac, timingSafeEqual } from "node:crypto";

const b64url = (data: Buffer | string) => Buffer.from(data).toString("base64url");

export function signJwt(payload: Record<string, unknown>, secret: string): string {
  const head = b64url(JSON.stringify({ alg: "HS256", typ: "JWT" }));
  const body = b64url(JSON.stringify(payload));
  const sig = createHmac("sha256", secret).update(`${head}.${body}`).digest("base64url");
  return `${head}.${body}.${sig}`;
}

export type JwtCheck = { ok: true; sub: string } | { ok: false; reason: string };

/** A base64url JSON object, or undefined for anything else (`null`, an array, bad bytes). */
function jsonObject(part: string): Record<string, unknown> | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(part)) return undefined;
  try {
    const v: unknown = JSON.parse(Buffer.from(part, "base64url").toString("utf8"));
    return v !== null && typeof v === "object" && !Array.isArray(v)
      ? (v as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Verifies an HS256 token: shape, algorithm, signature, expiry. Total over any input: every
 * failure is a reason (a 401), never an exception.
 */
export function verifyJwt(token: string, secret: string, now = Date.now()): JwtCheck {
  const parts = token.split(".");
  if (parts.length !== 3) return { ok: false, reason: "token is not a JWT" };
  const [head, body, sig] = parts;
  const header = jsonObject(head);
  if (!header) return { ok: false, reason: "token header is not a JSON object" };
  const payload = jsonObject(body);
  if (!payload) return { ok: false, reason: "token payload is not a JSON object" };
  if (header.alg !== "HS256") return { ok: false, reason: "token algorithm is not accepted" };
  const expected = createHmac("sha256", secret).update(`${head}.${body}`).digest();
  const given = Buffer.from(sig, "base64url");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return { ok: false, reason: "token signature is invalid" };
  }
  if (
    payload.exp !== undefined &&
    !(Number.isFinite(payload.exp) && (payload.exp as number) * 1000 > now)
  ) {
    return { ok: false, reason: "token has expired (or its exp is not a number)" };
  }
  if (typeof payload.sub !== "string") return { ok: false, reason: "token has no subject" };
  return { ok: true, sub: payload.sub };
}
