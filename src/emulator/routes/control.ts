import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { parseFaultConfig, type Faults } from "../faults";
import { signJwt } from "../jwt";
import { commit, type Emu } from "../context";
import { controlRoute } from "../control-access";
import type { Stats } from "../stats";
import { newAppRecord, type UserRecord } from "../world";

/*
 * The control API for tests and demos, under /__emulator/ only: stats, faults, tokens, a view of
 * the state, and out-of-band changes (what another operator would do behind the stack's back).
 */

/** A user by id or name; the first user when none is named. */
function findUser(emu: Emu, idOrName: string | undefined): UserRecord | undefined {
  if (!idOrName) return emu.world.users[0];
  return emu.world.users.find((u) => u.id === idOrName || u.name === idOrName);
}

export function issueToken(emu: Emu, userId?: string, expiresInSeconds = 24 * 3600): string {
  const user = findUser(emu, userId);
  if (!user) throw new Error(`no emulator user ${userId}`);
  const now = Math.floor(Date.now() / 1000);
  return signJwt(
    { sub: user.id, name: user.name, iat: now, exp: now + expiresInSeconds },
    emu.world.secret,
  );
}

const appPatch = z.strictObject({
  name: z.string().optional(),
  ram: z.number().int().optional(),
  vcpu: z.number().int().optional(),
  description: z.string().optional(),
  web_enabled: z.boolean().optional(),
  analytics_enabled: z.boolean().optional(),
  remove_domain: z.boolean().optional(),
  setup_ready: z.boolean().optional(),
});

// A number given as text would make an `exp` no check accepts: a token that never works.
const tokenRequest = z.strictObject({
  user: z.string().optional(),
  expiresInSeconds: z.number().int().positive().optional(),
});

const bulkApps = z.strictObject({
  user: z.string().optional(),
  count: z.number().int().min(1).max(100_000),
  prefix: z.string().default("bulk"),
});

export function registerControl(app: FastifyInstance, emu: Emu, faults: Faults, stats: Stats) {
  const bad = (message: string) => ({ error: message });

  app.get("/__emulator/stats", controlRoute, async () => stats.snapshot());
  app.delete("/__emulator/stats", controlRoute, async () => {
    stats.reset();
    return { message: "stats reset" };
  });

  app.post("/__emulator/faults", controlRoute, async (req, reply) => {
    const parsed = parseFaultConfig(req.body);
    if (!parsed.ok) return reply.code(400).send(bad(parsed.error));
    faults.configure(parsed.config);
    return { message: "faults set" };
  });

  app.post("/__emulator/tokens", controlRoute, async (req, reply) => {
    const parsed = tokenRequest.safeParse(req.body ?? {});
    if (!parsed.success) return reply.code(400).send(bad(parsed.error.issues[0].message));
    try {
      return { token: issueToken(emu, parsed.data.user, parsed.data.expiresInSeconds) };
    } catch (err) {
      return reply.code(404).send(bad((err as Error).message));
    }
  });

  // Passwords and signing keys stay out unless asked for: GET /__emulator/state?secrets=include
  app.get<{ Querystring: { secrets?: string } }>("/__emulator/state", controlRoute, async (req) => {
    const { secret, idempotency: _idem, ...rest } = emu.world;
    if (req.query.secrets === "include") return { ...rest, secret };
    return {
      ...rest,
      databases: rest.databases.map(({ password: _password, ...db }) => db),
    };
  });

  app.patch<{ Params: { id: string } }>(
    "/__emulator/apps/:id",
    controlRoute,
    async (req, reply) => {
      const target = emu.world.apps.find((a) => a.id === req.params.id);
      if (!target) return reply.code(404).send(bad("app not found"));
      const parsed = appPatch.safeParse(req.body ?? {});
      if (!parsed.success) return reply.code(400).send(bad(parsed.error.issues[0].message));
      const { remove_domain, setup_ready, ...fields } = parsed.data;
      Object.assign(target, fields);
      if (remove_domain) target.domain = null;
      if (setup_ready !== undefined)
        target.setup_ready_at = setup_ready ? emu.opts.now() : Number.MAX_SAFE_INTEGER;
      commit(emu);
      return { message: "app changed" };
    },
  );

  app.post("/__emulator/apps", controlRoute, async (req, reply) => {
    const parsed = bulkApps.safeParse(req.body ?? {});
    if (!parsed.success) return reply.code(400).send(bad(parsed.error.issues[0].message));
    const { count, prefix } = parsed.data;
    const user = findUser(emu, parsed.data.user);
    if (!user) return reply.code(404).send(bad("no such user"));
    const now = Date.now();
    const ids: string[] = [];
    for (let i = 0; i < count; i++) {
      const id = emu.rng.uuid();
      const rec = newAppRecord(
        {
          id,
          user_id: user.id,
          name: `${prefix}-${i}`,
          subdomain: `${prefix}-${i}-${id.slice(0, 6)}`,
          env_keys: [],
          created_at: now,
          setup_ready_at: now,
          archive_sha256: "",
          archive_bytes: 0,
        },
        { entrypoint: "index.js" },
      );
      emu.world.apps.push(rec);
      ids.push(id);
    }
    commit(emu);
    return { ids };
  });
}
