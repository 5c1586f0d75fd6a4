import type { EndpointName } from "../../api/wire";
import { iso, owned, queryValue, type Emu, type Handler } from "../context";
import { EmulatorReplyError } from "../errors";
import type { DatabaseRecord } from "../world";
import { LIST_POINTS, projectInfo } from "./usage";

const PORTS = { postgres: 5432, mysql: 3306, mongo: 27017, redis: 6379 } as const;

function databaseView(d: DatabaseRecord) {
  return {
    id: d.id,
    user_id: d.user_id,
    ...(d.workspace_id ? { workspace_id: d.workspace_id } : {}),
    ram: d.ram,
    vcpu: d.vcpu,
    name: d.name,
    is_app: false,
    project_type: "database",
    blocked_until: null,
    blocked_reason: null,
    setup: true,
    created_at: iso(d.created_at),
    auto_backup: d.auto_backup,
    service_type: d.service_type,
    visualizer: d.visualizer,
    size: d.size,
    last_setup_at: iso(d.last_setup_at),
  };
}

/** A database the caller may see: their own, or one of a workspace they belong to. */
function visible(emu: Emu, userId: string, id: string): DatabaseRecord {
  const d = emu.world.databases.find((x) => x.id === id);
  const member = (ws?: string) =>
    ws !== undefined &&
    emu.world.workspaces.some((w) => w.id === ws && w.member_ids.includes(userId));
  if (!d || !(d.user_id === userId || member(d.workspace_id))) {
    throw new EmulatorReplyError(404, `database ${id} not found`);
  }
  return d;
}

export const databaseRoutes: Partial<Record<EndpointName, Handler>> = {
  listDatabases: (emu, call) => {
    const user = call.user;
    const ws = queryValue("listDatabases", "workspaceId", call);
    let list: DatabaseRecord[];
    if (ws !== undefined) {
      const workspace = emu.world.workspaces.find((w) => w.id === ws);
      if (!workspace || !workspace.member_ids.includes(user.id)) {
        throw new EmulatorReplyError(404, `workspace ${ws} not found`);
      }
      list = emu.world.databases.filter((d) => d.workspace_id === ws);
    } else {
      list = emu.world.databases.filter((d) => d.user_id === user.id && !d.workspace_id);
    }
    return list.map((d) => ({
      database: databaseView(d),
      project_info: projectInfo(d.id, 60, LIST_POINTS),
      replica_status: d.replica_status,
    }));
  },
  getDatabaseConnection: (emu, { user, params }) => {
    const d = visible(emu, user.id, params.database_id);
    const host = `${d.id.slice(0, 8)}.db.hosting-emulator.test`;
    const scheme = d.service_type === "mongo" ? "mongodb" : d.service_type;
    return {
      connection_url: `${scheme}://${d.name}:${d.password}@${host}:${PORTS[d.service_type]}/${d.name}`,
      visualizer_url: d.visualizer ? `https://${host}/visualizer` : "",
    };
  },
  retryDatabaseSetup: (emu, { user, params }) => {
    const d = visible(emu, user.id, params.database_id);
    d.last_setup_at = Date.now();
    d.replica_status = d.replica_status.map(() => "pending");
    return { message: `setup of ${d.name} restarted` };
  },
  startVm: (emu, { user, params }) => {
    const vm = owned(emu.world.vms, params.vm_id, user, "vm");
    vm.running = true;
    return { message: `vm ${vm.name} is starting` };
  },
};
