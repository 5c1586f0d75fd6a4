import { setTimeout as sleep } from "node:timers/promises";
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from "fastify";
import multipart from "@fastify/multipart";
import { endpoints, wireAssumptions, type EndpointName } from "../api/wire";
import { commit, JsonText, type Emu, type Handler } from "./context";
import { EmulatorReplyError } from "./errors";
import { Faults } from "./faults";
import { verifyJwt } from "./jwt";
import { guardControl } from "./control-access";
import { registerControl } from "./routes/control";
import { appRoutes } from "./routes/apps";
import { backupRoutes, registerBackupDownload } from "./routes/backups";
import { databaseRoutes } from "./routes/databases";
import type { Stats } from "./stats";
import type { UserRecord } from "./world";

const handlers: Record<EndpointName, Handler> = {
  ...appRoutes,
  ...databaseRoutes,
  ...backupRoutes,
} as Record<EndpointName, Handler>;

const MAX_IDEMPOTENCY_KEYS = 2000;

/** Builds the Fastify app: every endpoint of the shared table, plus the control API. */
export function buildServer(emu: Emu, faults: Faults, stats: Stats): FastifyInstance {
  const app = Fastify({ logger: emu.opts.logger, bodyLimit: 1024 * 1024 });
  // First, so that every route added after it is checked for an access rule.
  guardControl(app, emu.opts.controlToken);
  // Injected latency must not outlive the server: a pending sleep would hold the process open.
  const closing = new AbortController();
  app.addHook("preClose", async () => closing.abort());
  void app.register(multipart, {
    limits: { fileSize: emu.opts.maxUploadBytes, files: 1, fields: 4, fieldSize: 1024 * 1024 },
  });

  app.setNotFoundHandler((req, reply) => {
    void reply.code(404).send({ error: `no route ${req.method} ${req.url.split("?")[0]}` });
  });
  app.setErrorHandler((err: Error & { statusCode?: number }, _req, reply) => {
    if (err instanceof EmulatorReplyError)
      return reply.code(err.status).send({ error: err.message });
    const status = err.statusCode && err.statusCode >= 400 ? err.statusCode : 500;
    void reply.code(status).send({ error: status === 500 ? "internal error" : err.message });
  });

  for (const name of Object.keys(endpoints) as EndpointName[]) {
    const ep = endpoints[name];
    const routeKey = `${ep.method} ${ep.path}`;
    const handler = handlers[name];
    if (!handler) throw new Error(`emulator has no handler for ${name}`);
    app.route({
      method: ep.method,
      url: ep.path.replace(/\{(\w+)\}/g, ":$1"),
      handler: (req, reply) =>
        serve(emu, faults, stats, routeKey, handler, req, reply, closing.signal),
    });
  }
  registerBackupDownload(app, emu);
  registerControl(app, emu, faults, stats);
  return app;
}

async function serve(
  emu: Emu,
  faults: Faults,
  stats: Stats,
  routeKey: string,
  handler: Handler,
  req: FastifyRequest,
  reply: FastifyReply,
  closing: AbortSignal,
): Promise<unknown> {
  stats.countRequest(routeKey);
  const fault = faults.decide(routeKey);
  if (fault.latencyMs) {
    stats.countFault("latency");
    await sleep(fault.latencyMs, undefined, { signal: closing }).catch(() => undefined);
    if (closing.aborted) return drop(req, reply);
  }
  if (fault.reset) {
    stats.countFault("reset");
    return drop(req, reply);
  }
  if (fault.status) {
    stats.countFault("status");
    if (fault.retryAfterSeconds !== undefined) {
      void reply.header("retry-after", String(fault.retryAfterSeconds));
    }
    return reply.code(fault.status).send({ error: `injected fault: HTTP ${fault.status}` });
  }

  const auth = authenticate(emu, req);
  if ("error" in auth) return reply.code(401).send({ error: auth.error });
  const window = faults.countRequest(auth.token, emu.opts.now());
  if (window) {
    // IETF draft RateLimit headers (integer seconds, as the draft has them).
    const resetS = Math.ceil(window.resetMs / 1000);
    void reply
      .header("ratelimit-policy", `"token";q=${window.limit};w=${window.windowMs / 1000}`)
      .header("ratelimit", `"token";r=${window.remaining};t=${resetS}`);
  }
  if (window?.over) {
    stats.countFault("rateLimited");
    return reply
      .code(429)
      .header("retry-after", String(Math.max(1, Math.ceil(window.resetMs / 1000))))
      .send({ error: "rate limit exceeded" });
  }

  const mutates = req.method !== "GET";
  const idem = emu.opts.honourIdempotencyKeys ? idempotencyOf(req, auth.user) : undefined;
  const prior = idem ? emu.world.idempotency[idem.key] : undefined;
  if (idem && prior) {
    if (prior.scope !== undefined && prior.scope !== idem.scope) {
      return reply.code(422).send({
        error: `Idempotency-Key was already used for ${prior.scope}; send a new key for ${idem.scope}`,
      });
    }
    return reply.code(prior.status).send(prior.body);
  }

  let body: unknown;
  try {
    body = await handler(emu, {
      req,
      user: auth.user,
      params: req.params as Record<string, string>,
      query: req.query as Record<string, string | undefined>,
      body: req.body,
    });
    if (mutates) {
      if (idem) rememberReply(emu, idem, body);
      commit(emu);
    }
  } catch (err) {
    if (err instanceof EmulatorReplyError)
      return reply.code(err.status).send({ error: err.message });
    throw err;
  }
  if (fault.commitThenDrop) {
    stats.countFault("commitThenDrop");
    return drop(req, reply);
  }
  if (fault.commitThenStatus) {
    stats.countFault("commitThenStatus");
    return reply
      .code(fault.commitThenStatus)
      .send({ error: `injected fault: HTTP ${fault.commitThenStatus} after applying` });
  }
  if (body instanceof JsonText) {
    return reply.code(200).type("application/json; charset=utf-8").send(body.text);
  }
  return reply.code(200).send(body);
}

/** A POST's Idempotency-Key, per user, with the method and path it is good for. */
function idempotencyOf(req: FastifyRequest, user: UserRecord) {
  const header = req.headers[wireAssumptions.idempotencyHeader];
  if (req.method !== "POST" || typeof header !== "string") return undefined;
  return { key: `${user.id}:${header}`, scope: `${req.method} ${req.url.split("?")[0]}` };
}

function rememberReply(emu: Emu, idem: { key: string; scope: string }, body: unknown): void {
  const table = emu.world.idempotency;
  table[idem.key] = { scope: idem.scope, status: 200, body };
  const keys = Object.keys(table);
  if (keys.length > MAX_IDEMPOTENCY_KEYS) delete table[keys[0]];
}

function drop(req: FastifyRequest, reply: FastifyReply): void {
  reply.hijack();
  req.raw.socket.destroy();
}

function authenticate(
  emu: Emu,
  req: FastifyRequest,
): { user: UserRecord; token: string } | { error: string } {
  const header = req.headers.authorization;
  if (!header) return { error: "missing bearer token in the Authorization header" };
  const m = /^Bearer\s+(\S+)$/i.exec(header);
  if (!m) return { error: "Authorization header must be: Bearer <token>" };
  const check = verifyJwt(m[1], emu.world.secret);
  if (!check.ok) return { error: check.reason };
  const user = emu.world.users.find((u) => u.id === check.sub);
  if (!user) return { error: "token names an unknown user" };
  return { user, token: m[1] };
}
