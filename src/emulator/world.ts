import type { RuntimeVersion } from "../api/schemas";
import { Rng } from "./rng";

/* The emulator's whole state: plain JSON, so it can be written to and read from a state file. */

export interface UserRecord {
  id: string;
  name: string;
}

export interface WorkspaceRecord {
  id: string;
  name: string;
  member_ids: string[];
}

export interface DomainRecord {
  id: string;
  hostname: string;
  attached_at: number;
  ownership_value: string;
  ssl_value: string;
}

export interface AppRecord {
  id: string;
  user_id: string;
  name: string;
  ram: number;
  vcpu: number;
  subdomain: string;
  entrypoint: string;
  description: string;
  custom_command: string;
  runtime: { language: string; version: string } | null;
  env_keys: string[];
  created_at: number;
  setup_ready_at: number;
  web_enabled: boolean;
  analytics_enabled: boolean;
  domain: DomainRecord | null;
  archive_sha256: string;
  archive_bytes: number;
}

export interface DatabaseRecord {
  id: string;
  user_id: string;
  workspace_id?: string;
  name: string;
  service_type: "postgres" | "mysql" | "mongo" | "redis";
  ram: number;
  vcpu: number;
  size: number;
  visualizer: boolean;
  auto_backup: boolean;
  created_at: number;
  last_setup_at: number;
  replica_status: Array<"not_found" | "pending" | "running" | "stopped">;
  password: string;
}

export interface VmRecord {
  id: string;
  user_id: string;
  name: string;
  running: boolean;
}

export interface BackupRecord {
  id: string;
  project_id: string;
  created_at: number;
}

export interface DeploymentRecord {
  id: string;
  app_id: string;
  created_at: number;
  commit: string;
}

export interface World {
  version: 1;
  /** HMAC key for tokens and signed URLs; kept in state so tokens survive a restart. */
  secret: string;
  users: UserRecord[];
  workspaces: WorkspaceRecord[];
  apps: AppRecord[];
  databases: DatabaseRecord[];
  vms: VmRecord[];
  backups: BackupRecord[];
  deployments: DeploymentRecord[];
  runtime_versions: RuntimeVersion[];
  /**
   * Replies already given to POSTs, by user and Idempotency-Key; `scope` is the method and path
   * the key was first used on (a key reused elsewhere is refused, not replayed).
   */
  idempotency: Record<string, { scope: string; status: number; body: unknown }>;
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
