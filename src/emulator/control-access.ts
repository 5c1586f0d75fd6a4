import { BlockList, isIPv4 } from "node:net";
import { createHash, timingSafeEqual } from "node:crypto";
import type { FastifyInstance, FastifyRequest, RouteShorthandOptions } from "fastify";
import { isLoopbackHost } from "../api/wire";

/*
 * Who may use the control API (/__emulator/*: mint tokens for any user, read the state, set
 * faults). Without a control token: loopback peers that name a loopback host, from no web page
 * of another site. With one: whoever
 * sends it as a bearer. Access is decided on the route the router matched (its `config.access`),
 * never on the raw URL: the router decodes and normalizes paths, so a prefix test on the raw
 * text (`/%5F%5Femulator/state`, `http://evil/__emulator/state`) would miss routes it serves.
 */

/** How a route under /__emulator/ is protected; every such route must declare one. */
type Access = "control" | "signed-url";

declare module "fastify" {
  interface FastifyContextConfig {
    /** Who may call the route (see control-access.ts); required under /__emulator/. */
    access?: Access;
  }
}

/** Route options of every control route: the guard below checks these. */
export const controlRoute: RouteShorthandOptions = { config: { access: "control" } };
/** Route options of a route that checks its own signature (backup download URLs). */
export const signedUrlRoute: RouteShorthandOptions = { config: { access: "signed-url" } };

const loopback = new BlockList();
loopback.addSubnet("127.0.0.0", 8, "ipv4");
loopback.addAddress("::1", "ipv6");

/** A peer address on this machine: 127/8, ::1, or either in IPv4-mapped form. */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  return loopback.check(address, isIPv4(address) ? "ipv4" : "ipv6");
}

// host[:port], where host is a name or a bracketed IPv6 literal; anything else (userinfo,
// a path, a second colon) is not a Host header a local client sends.
const AUTHORITY = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::\d{1,5})?$/i;

/**
 * True when an authority (a Host header, or the host of an absolute-form target) names this
 * machine: `localhost`, a 127/8 address or `[::1]`. A page that rebinds its own DNS name to
 * 127.0.0.1 still sends that name, so this is what tells a local tool from a browser tab.
 */
export function isLoopbackAuthority(authority: string | undefined): boolean {
  const host = AUTHORITY.exec(authority ?? "")?.[1].toLowerCase();
  if (host === undefined) return false;
  if (host === "localhost") return true;
  if (host.startsWith("[")) return isLoopbackAddress(host.slice(1, -1));
  return isIPv4(host) && isLoopbackAddress(host);
}

/**
 * True unless a browser sent the request from a page that is not on this machine: a page on
 * another site may still POST to http://127.0.0.1:<port>/ (no preflight for a form or text
 * body), and only its `Origin` header tells. Local tools send none.
 */
function isLocalOrigin(origin: string | undefined): boolean {
  if (origin === undefined) return true;
  const authority = /^https?:\/\/([^/?#]*)$/i.exec(origin)?.[1];
  return isLoopbackAuthority(authority);
}

/** The authority a request names: the absolute-form target's (RFC 9112 §3.2.2), else Host. */
function authorityOf(req: FastifyRequest): string | undefined {
  const target = req.raw.url ?? "";
  if (target.startsWith("/")) return req.headers.host;
  return /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)/i.exec(target)?.[1];
}

// Digests of equal length, so the comparison takes the same time whatever the length sent.
const digest = (text: string) => createHash("sha256").update(text).digest();

function bearerMatches(header: string | undefined, tokenDigest: Buffer): boolean {
  const given = /^Bearer\s+(\S+)$/i.exec(header ?? "")?.[1] ?? "";
  return timingSafeEqual(digest(given), tokenDigest);
}

const CONTROL_PREFIX = "/__emulator";

/**
 * Installs the guard. Call it before any route is added: a route under /__emulator/ that
 * declares no access rule then fails at start instead of being served to anyone.
 */
export function guardControl(app: FastifyInstance, controlToken: string | undefined): void {
  app.addHook("onRoute", (route) => {
    const access = route.config?.access;
    if (route.url.toLowerCase().startsWith(CONTROL_PREFIX) && access === undefined) {
      throw new Error(`emulator route ${route.method} ${route.url} declares no access rule`);
    }
  });
  const tokenDigest = controlToken === undefined ? undefined : digest(controlToken);
  app.addHook("onRequest", async (req, reply) => {
    const access = req.routeOptions.config.access;
    if (access !== "control") return;
    if (tokenDigest !== undefined) {
      if (bearerMatches(req.headers.authorization, tokenDigest)) return;
      return reply
        .code(401)
        .send({ error: "the control API needs the emulator's control token as a Bearer token" });
    }
    if (!isLoopbackAddress(req.socket.remoteAddress)) {
      return reply.code(403).send({
        error:
          "the control API answers loopback peers only; start the emulator with a control token " +
          "(--control-token-file, HOSTING_EMULATOR_CONTROL_TOKEN) to use it from elsewhere",
      });
    }
    if (!isLoopbackAuthority(authorityOf(req))) {
      return reply.code(403).send({
        error:
          "the control API answers requests addressed to localhost, 127.0.0.1 or [::1] only " +
          "(the Host header names another host, or is missing)",
      });
    }
    if (!isLocalOrigin(req.headers.origin)) {
      return reply.code(403).send({
        error: "the control API does not answer pages of other sites (the Origin header)",
      });
    }
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
    "(/__emulator/*) answers loopback peers only; set HOSTING_EMULATOR_CONTROL_TOKEN or pass " +
    "--control-token-file <file> to use it remotely"
  );
}
