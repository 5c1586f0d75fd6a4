import { z } from "zod";
import { assertType, besides, type Matches } from "../base";
import { storedSettings } from "./setting-rules";
import type { AppRecord, World } from "./world";

/*
 * The shape a state file must have before the emulator serves from it. Records are checked for
 * the fields the routes read, so a hand-edited or half-written file is refused at start with the
 * field that is wrong, instead of failing later as a TypeError inside a request.
 */

const id = z.string().min(1);
const time = z.number().finite();
const owned = { id, user_id: id };

const domain = z.looseObject({
  id,
  hostname: z.string(),
  attached_at: time,
  ownership_value: z.string(),
  ssl_value: z.string(),
});

// A plain setting the record keeps has its rule from its default; those written here are required.
const app = z.looseObject(
  besides(
    {
      ...owned,
      name: z.string(),
      ram: z.number(),
      vcpu: z.number(),
      subdomain: z.string(),
      entrypoint: z.string(),
      description: z.string(),
      custom_command: z.string(),
      runtime: z.looseObject({ language: z.string(), version: z.string() }).nullable(),
      env_keys: z.array(z.string()),
      created_at: time,
      setup_ready_at: time,
      web_enabled: z.boolean(),
      analytics_enabled: z.boolean(),
      domain: domain.nullable(),
      archive_sha256: z.string(),
      archive_bytes: z.number(),
    },
    storedSettings,
  ),
);

// A state file's app is checked for every field the record has, as the record types it.
assertType<
  Matches<z.output<typeof app>, AppRecord, "the app schema (src/emulator/state-schema.ts)">
>(true);

const database = z.looseObject({
  ...owned,
  workspace_id: id.optional(),
  name: z.string(),
  service_type: z.enum(["postgres", "mysql", "mongo", "redis"]),
  ram: z.number(),
  vcpu: z.number(),
  size: z.number(),
  visualizer: z.boolean(),
  auto_backup: z.boolean(),
  created_at: time,
  last_setup_at: time,
  replica_status: z.array(z.enum(["not_found", "pending", "running", "stopped"])),
  password: z.string(),
});

/** A state file: what parses is a World (the compiler holds the rules to it, here). */
export const worldSchema: z.ZodType<World> = z.looseObject({
  version: z.literal(1),
  secret: z.string().min(16),
  users: z.array(z.looseObject({ id, name: z.string() })).min(1),
  workspaces: z.array(z.looseObject({ id, name: z.string(), member_ids: z.array(id) })),
  apps: z.array(app),
  databases: z.array(database),
  vms: z.array(z.looseObject({ ...owned, name: z.string(), running: z.boolean() })),
  backups: z.array(z.looseObject({ id, project_id: id, created_at: time })),
  deployments: z.array(
    z.looseObject({
      id,
      app_id: id,
      created_at: time,
      commit: z.string(),
      error: z.string().optional(),
    }),
  ),
  runtime_versions: z.array(
    z.looseObject({
      language: z.string(),
      version: z.string(),
      recommended: z.boolean(),
      latest: z.boolean(),
    }),
  ),
  idempotency: z.record(
    z.string(),
    z.looseObject({ scope: z.string().optional(), status: z.number(), body: z.unknown() }),
  ),
});
