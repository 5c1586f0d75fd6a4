import type { DatabaseServiceType, ReplicaStatus, RuntimeVersion } from "../api";
import type { AppManifest } from "../api/wire";
import { assertType, type Covers } from "../base";
import { Rng } from "./rng";

/* The emulator's whole state: plain JSON, so it can be written to and read from a state file. */

/** A user of the emulator; tokens are issued per user. */
export interface UserRecord {
  /** The user's id (a uuid). */
  id: string;
  /** A short name, e.g. `alice`; `issueToken` takes it too. */
  name: string;
}

/** A workspace whose databases its members can list. */
export interface WorkspaceRecord {
  /** The workspace's id. */
  id: string;
  /** Its name. */
  name: string;
  /** Ids of the users who belong to it. */
  member_ids: string[];
}

/** A custom domain attached to an app. */
export interface DomainRecord {
  /** The custom hostname's id at the edge. */
  id: string;
  /** The hostname, lower-case. */
  hostname: string;
  /** When it was attached, in ms since the epoch. */
  attached_at: number;
  /** Value of the ownership TXT record. */
  ownership_value: string;
  /** Value of the SSL validation TXT record. */
  ssl_value: string;
}

/** An app as the emulator stores it. */
export interface AppRecord {
  /** The app's id (a uuid). */
  id: string;
  /** Its owner. */
  user_id: string;
  /** Its name, from the uploaded manifest. */
  name: string;
  /** RAM in MB. */
  ram: number;
  /** Number of virtual CPUs. */
  vcpu: number;
  /** The platform subdomain. */
  subdomain: string;
  /** The file the runtime starts. */
  entrypoint: string;
  /** Free text. */
  description: string;
  /** A start command that replaces the runtime's default. */
  custom_command: string;
  /** The runtime, or null for the platform's default. */
  runtime: {
    /** e.g. `node`. */
    language: string;
    /** e.g. `20.18.1`. */
    version: string;
  } | null;
  /** Names of the environment variables it was given (values are not kept). */
  env_keys: string[];
  /** When it was created, in ms since the epoch. */
  created_at: number;
  /** When its setup finishes, in ms since the epoch. */
  setup_ready_at: number;
  /** Whether public web access is on. */
  web_enabled: boolean;
  /** Whether traffic analytics is on. */
  analytics_enabled: boolean;
  /** The attached custom domain, or null. */
  domain: DomainRecord | null;
  /** sha256 of the uploaded archive, hex. */
  archive_sha256: string;
  /** Size of the uploaded archive, in bytes. */
  archive_bytes: number;
}

// The record keeps every setting an app's manifest may carry, under the manifest's own key.
assertType<Covers<AppRecord, AppManifest, "AppRecord (src/emulator/world.ts)">>(true);

/** What a new app's record takes besides the settings of its manifest. */
export type NewAppRecord = Pick<
  AppRecord,
  | "id"
  | "user_id"
  | "name"
  | "subdomain"
  | "env_keys"
  | "created_at"
  | "setup_ready_at"
  | "archive_sha256"
  | "archive_bytes"
>;

/**
 * @internal The platform's default of each plain setting a manifest may leave out: a new app's,
 * and a state file's record written before the setting was kept (state-schema.ts).
 */
export const APP_SETTING_DEFAULTS = {
  ram: 512,
  vcpu: 1,
  entrypoint: "",
  description: "",
  custom_command: "",
} as const satisfies Partial<Record<keyof AppManifest & keyof AppRecord, string | number>>;

type PlainSetting = keyof typeof APP_SETTING_DEFAULTS;

/**
 * @internal A new app's record: the settings its manifest carries, the platform's defaults for
 * the others, web access on, analytics off, no domain. Internal: the manifest is not part of the
 * published types (see api/manifest.ts).
 */
export function newAppRecord(app: NewAppRecord, m: Partial<AppManifest> = {}): AppRecord {
  // The settings the manifest sets (a key it leaves out is not set to undefined).
  const set = Object.fromEntries(
    Object.keys(APP_SETTING_DEFAULTS)
      .map((k) => [k, m[k as PlainSetting]])
      .filter(([, v]) => v !== undefined),
  ) as Partial<Pick<AppRecord, PlainSetting>>;
  return {
    id: app.id,
    user_id: app.user_id,
    name: app.name,
    ...APP_SETTING_DEFAULTS,
    ...set,
    subdomain: app.subdomain,
    runtime: m.runtime ?? null,
    env_keys: app.env_keys,
    created_at: app.created_at,
    setup_ready_at: app.setup_ready_at,
    web_enabled: true,
    analytics_enabled: false,
    domain: null,
    archive_sha256: app.archive_sha256,
    archive_bytes: app.archive_bytes,
  };
}

/** A managed database as the emulator stores it. */
export interface DatabaseRecord {
  /** The database's id (a uuid). */
  id: string;
  /** Its owner. */
  user_id: string;
  /** The workspace it belongs to, if any. */
  workspace_id?: string;
  /** Its name. */
  name: string;
  /** The database engine. */
  service_type: DatabaseServiceType;
  /** RAM in MB. */
  ram: number;
  /** Number of virtual CPUs. */
  vcpu: number;
  /** Size in bytes. */
  size: number;
  /** Whether the web data visualizer is on. */
  visualizer: boolean;
  /** Whether automatic backups are on. */
  auto_backup: boolean;
  /** When it was created, in ms since the epoch. */
  created_at: number;
  /** When setup last ran, in ms since the epoch. */
  last_setup_at: number;
  /** The state of each replica. */
  replica_status: ReplicaStatus[];
  /** The password in its connection URL. */
  password: string;
}

/** A virtual machine as the emulator stores it. */
export interface VmRecord {
  /** The VM's id. */
  id: string;
  /** Its owner. */
  user_id: string;
  /** Its name. */
  name: string;
  /** Whether it is running. */
  running: boolean;
}

/** A backup of a project. */
export interface BackupRecord {
  /** The backup's id. */
  id: string;
  /** The project (app, database or VM) it belongs to. */
  project_id: string;
  /** When it was made, in ms since the epoch; decides whether it may be deleted yet. */
  created_at: number;
}

/** A deployment of an app. */
export interface DeploymentRecord {
  /** The deployment's id. */
  id: string;
  /** The app it belongs to. */
  app_id: string;
  /** When it was made, in ms since the epoch. */
  created_at: number;
  /** The source commit. */
  commit: string;
  /** Why it failed (the app's setup then never finishes); absent when it did not. */
  error?: string;
}

/**
 * The emulator's whole state: plain JSON, so it can be written to and read from a state file.
 * Tests may read it, or change it to set up a case (e.g. turn analytics on).
 */
export interface World {
  /** Format version of the state file. */
  version: 1;
  /** HMAC key for tokens and signed URLs; kept in state so tokens survive a restart. */
  secret: string;
  /** Every user. */
  users: UserRecord[];
  /** Every workspace. */
  workspaces: WorkspaceRecord[];
  /** Every app. */
  apps: AppRecord[];
  /** Every database. */
  databases: DatabaseRecord[];
  /** Every VM. */
  vms: VmRecord[];
  /** Every backup. */
  backups: BackupRecord[];
  /** Every deployment. */
  deployments: DeploymentRecord[];
  /** The runtime versions `GET /apps/versions` lists. */
  runtime_versions: RuntimeVersion[];
  /**
   * Replies already given to POSTs, by user and Idempotency-Key; `scope` is the method and path
   * the key was first used on (a key reused elsewhere is refused, not replayed).
   */
  idempotency: Record<
    string,
    {
      /**
       * The method and path the key was first used on; absent in state files written before keys
       * were scoped, whose replies are replayed on any path as they were then.
       */
      scope?: string;
      /** The status replied. */
      status: number;
      /** The body replied. */
      body: unknown;
    }
  >;
}

const RUNTIMES: Array<[string, string[], string]> = [
  ["node", ["18.20.4", "20.18.1", "22.11.0"], "20.18.1"],
  ["python", ["3.10.15", "3.11.10", "3.12.7"], "3.11.10"],
  ["go", ["1.22.9", "1.23.3"], "1.22.9"],
  ["php", ["8.2.25", "8.3.13"], "8.2.25"],
  ["java", ["17", "21"], "17"],
];

/** The seeded world: two users, a workspace, databases of every type, VMs and aged backups. */
export function seedWorld(seed: string, now: number): World {
  const rng = new Rng(`world:${seed}`);
  const users = [
    { id: rng.uuid(), name: "alice" },
    { id: rng.uuid(), name: "bob" },
  ];
  const [alice, bob] = users;
  const workspace = { id: rng.uuid(), name: "platform-team", member_ids: [alice.id] };
  const types = ["postgres", "mysql", "mongo", "redis"] as const;
  const statuses = ["running", "pending", "stopped", "not_found"] as const;
  const databases: DatabaseRecord[] = [];
  const db = (owner: string, name: string, type: (typeof types)[number], ws?: string) => {
    const rec: DatabaseRecord = {
      id: rng.uuid(),
      user_id: owner,
      ...(ws ? { workspace_id: ws } : {}),
      name,
      service_type: type,
      ram: [256, 512, 1024][rng.int(0, 2)],
      vcpu: rng.int(1, 2),
      size: rng.int(1, 900) * 1024 * 1024,
      visualizer: rng.next() < 0.5,
      auto_backup: true,
      created_at: now - rng.int(2, 90) * 86400_000,
      last_setup_at: now - rng.int(1, 30) * 86400_000,
      replica_status: [statuses[rng.int(0, 1)], statuses[rng.int(0, 3)]],
      password: rng.hex(12),
    };
    databases.push(rec);
    return rec;
  };
  types.forEach((t) => db(alice.id, `alice-${t}`, t));
  db(alice.id, "team-postgres", "postgres", workspace.id);
  db(alice.id, "team-redis", "redis", workspace.id);
  db(bob.id, "bob-postgres", "postgres");
  const vms: VmRecord[] = [
    { id: rng.uuid(), user_id: alice.id, name: "alice-vm", running: false },
    { id: rng.uuid(), user_id: bob.id, name: "bob-vm", running: false },
  ];
  const backups: BackupRecord[] = [];
  for (const project of [...databases, ...vms]) {
    for (const ageMs of [10 * 60_000, 3 * 86400_000, 40 * 86400_000]) {
      backups.push({ id: rng.uuid(), project_id: project.id, created_at: now - ageMs });
    }
  }
  const runtime_versions = RUNTIMES.flatMap(([language, versions, recommended]) =>
    versions.map((version, i) => ({
      language,
      version,
      recommended: version === recommended,
      latest: i === versions.length - 1,
    })),
  );
  return {
    version: 1,
    secret: rng.hex(32),
    users,
    workspaces: [workspace],
    apps: [],
    databases,
    vms,
    backups,
    deployments: [],
    runtime_versions,
    idempotency: {},
  };
}

/** Who owns a project (app, database or VM), or undefined when there is no such project. */
export function projectOwner(world: World, projectId: string): string | undefined {
  return (
    world.apps.find((a) => a.id === projectId)?.user_id ??
    world.databases.find((d) => d.id === projectId)?.user_id ??
    world.vms.find((v) => v.id === projectId)?.user_id
  );
}
