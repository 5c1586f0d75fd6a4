import { timingSafeEqual } from "node:crypto";
import type { FastifyInstance } from "fastify";
import { isLoopbackHost } from "../api/credentials";

/*
 * Who may use the control API (/__emulator/*: mint tokens for any user, read the state, set
 * faults). Without a control token: loopback peers only. With one: whoever sends it as a bearer.
 * The signed backup-download URLs live under the same prefix but carry their own signature.
 */

const CONTROL_PREFIX = "/__emulator/";
const PUBLIC_PREFIX = "/__emulator/backups/";

export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const v4 = address.startsWith("::ffff:") ? address.slice(7) : address;
  return isLoopbackHost(v4);
}

function bearerMatches(header: string | undefined, token: string): boolean {
  const given = Buffer.from(/^Bearer\s+(\S+)$/i.exec(header ?? "")?.[1] ?? "");
  const want = Buffer.from(token);
  return given.length === want.length && timingSafeEqual(given, want);
}

export function guardControl(app: FastifyInstance, controlToken: string | undefined): void {
  app.addHook("onRequest", async (req, reply) => {
    if (!req.url.startsWith(CONTROL_PREFIX) || req.url.startsWith(PUBLIC_PREFIX)) return;
    if (controlToken !== undefined) {
      if (bearerMatches(req.headers.authorization, controlToken)) return;
      return reply
        .code(401)
        .send({ error: "the control API needs the emulator's control token as a Bearer token" });
    }
    if (isLoopbackAddress(req.socket.remoteAddress)) return;
    return reply.code(403).send({
      error:
        "the control API answers loopback peers only; start the emulator with --control-token " +
        "to use it from elsewhere",
    });
  });
}

/** Said once at start when the emulator listens beyond this machine without a control token. */
export function exposureWarning(
  host: string,
  controlToken: string | undefined,
): string | undefined {
  if (controlToken !== undefined || isLoopbackHost(host)) return undefined;
  return (
    `hosting-emulator: listening on ${host}, reachable from other machines, without a control ` +
    "token: the API is open to anyone who can reach the port, and the control API " +
    "(/__emulator/*) answers loopback peers only; pass --control-token <token> to use it remotely"
  );
}
