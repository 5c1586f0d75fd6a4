import { createHmac, timingSafeEqual } from "node:crypto";

const b64url = (data: Buffer | string) => Buffer.from(data).toString("base64url");

export function signJwt(payload: Record<string, unknown>, secret: string): string {
  const head = b64url(JSON.stringify({ alg: "HS256", typ: "JWT" }));
  const body = b64url(JSON.stringify(payload));
  const sig = createHmac("sha256", secret).update(`${head}.${body}`).digest("base64url");
  return `${head}.${body}.${sig}`;
}

export type JwtCheck = { ok: true; sub: string } | { ok: false; reason: string };

/** Verifies an HS256 token: shape, algorithm, signature, expiry. */
export function verifyJwt(token: string, secret: string, now = Date.now()): JwtCheck {
  const parts = token.split(".");
  if (parts.length !== 3) return { ok: false, reason: "token is not a JWT" };
  const [head, body, sig] = parts;
  let header: { alg?: unknown };
  let payload: { sub?: unknown; exp?: unknown };
  try {
    header = JSON.parse(Buffer.from(head, "base64url").toString("utf8"));
    payload = JSON.parse(Buffer.from(body, "base64url").toString("utf8"));
  } catch {
    return { ok: false, reason: "token is not a JWT" };
  }
  if (header.alg !== "HS256") return { ok: false, reason: "token algorithm is not accepted" };
  const expected = createHmac("sha256", secret).update(`${head}.${body}`).digest();
  const given = Buffer.from(sig, "base64url");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return { ok: false, reason: "token signature is invalid" };
  }
  if (typeof payload.exp === "number" && payload.exp * 1000 <= now) {
    return { ok: false, reason: "token has expired" };
  }
  if (typeof payload.sub !== "string") return { ok: false, reason: "token has no subject" };
  return { ok: true, sub: payload.sub };
}
