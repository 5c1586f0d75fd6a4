import { useInProcessProvider } from "../helpers/provider-env";

/*
 * The action resources, called as Pulumi's provider host calls them: they act on create and on an update whose
 * triggers changed, never in check or diff; deleting them sends nothing.
 */

const env = useInProcessProvider({ setupDelayMs: 0 });
const mutations = () =>
  Object.entries(env.emu.stats().requests)
    .filter(([route]) => !route.startsWith("GET "))
    .reduce((n, [, c]) => n + c, 0);
const count = (route: string) => env.emu.stats().requests[route] ?? 0;
const alice = () => env.emu.users[0].id;

describe("VmStart", () => {
  const urn = env.urn("VmStart", "start");
  test("starts on create, again only when triggers change; target change replaces; delete sends nothing", async () => {
    const vm = env.emu.world.vms.find((v) => v.user_id === alice())!;
    vm.running = false;
    env.emu.resetStats();
    const first = await env.host.check(
      urn,
      {},
      await env.inputs("VmStart", { vmId: vm.id, triggers: ["v1"] }),
    );
    expect(first.failures).toEqual([]);
    expect(mutations()).toBe(0);

    const created = await env.host.create(urn, first.inputs);
    expect(vm.running).toBe(true);
    expect(count("POST /vms/{vm_id}/start")).toBe(1);
    expect(created.properties.message).toMatch(/starting/);

    // Same inputs: no change, nothing sent.
    const same = await env.host.diff(created.id, urn, created.properties, first.inputs);
    expect(same.changes).toBe(false);

    // New triggers: an in-place update that starts the VM again.
    const bumped = await env.host.check(
      urn,
      created.properties,
      await env.inputs("VmStart", { vmId: vm.id, triggers: ["v2"] }),
    );
    const d = await env.host.diff(created.id, urn, created.properties, bumped.inputs);
    expect(d).toMatchObject({ changes: true, replaces: [] });
    expect(mutations()).toBe(1);
    vm.running = false;
    const updated = await env.host.update(created.id, urn, created.properties, bumped.inputs);
    expect(vm.running).toBe(true);
    expect(count("POST /vms/{vm_id}/start")).toBe(2);
    expect(updated.triggers).toEqual(["v2"]);

    // Another VM: replaced, so create runs on the new one.
    const other = await env.host.check(
      urn,
      updated,
      await env.inputs("VmStart", { vmId: "another-vm", triggers: ["v2"] }),
    );
    expect((await env.host.diff(created.id, urn, updated, other.inputs)).replaces).toEqual([
      "vmId",
    ]);

    // Refresh keeps it as it is; delete forgets it without a request.
    const read = await env.host.read(created.id, urn, updated);
    expect(read.id).toBe(created.id);
    await env.host.delete(created.id, urn, updated);
    expect(mutations()).toBe(2);
  });

  test("a bad vmId fails in check naming the property, with no request", async () => {
    env.emu.resetStats();
    for (const vmId of ["", "..", "a/b", "x\ny"]) {
      const bad = await env.host.check(urn, {}, await env.inputs("VmStart", { vmId }));
      expect(bad.failures).toEqual([
        {
          property: "vmId",
          reason: expect.stringMatching(/^vmId .*pass the id of one of your VMs/),
        },
      ]);
    }
    const noList = await env.host.check(
      urn,
      {},
      await env.inputs("VmStart", { vmId: "v", triggers: "x" }),
    );
    expect(noList.failures[0]).toMatchObject({
      property: "triggers",
      reason: expect.stringMatching(/list of values/),
    });
    expect(env.emu.stats().total).toBe(0);
  });
});

describe("DatabaseSetupRetry", () => {
  test("retries the setup on create, not on an unchanged diff", async () => {
    const urn = env.urn("DatabaseSetupRetry", "retry");
    const db = env.emu.world.databases.find((d) => d.user_id === alice())!;
    db.last_setup_at = 0;
    env.emu.resetStats();
    const c = await env.host.check(
      urn,
      {},
      await env.inputs("DatabaseSetupRetry", { databaseId: db.id }),
    );
    const created = await env.host.create(urn, c.inputs);
    expect(db.last_setup_at).toBeGreaterThan(0);
    expect(created.properties.message).toMatch(/restarted/);
    expect((await env.host.diff(created.id, urn, created.properties, c.inputs)).changes).toBe(
      false,
    );
    expect(count("POST /databases/{database_id}/retry-setup")).toBe(1);
  });
});

describe("BackupDeletion", () => {
  const urn = env.urn("BackupDeletion", "old");
  const backupsOf = (projectId: string) =>
    env.emu.world.backups.filter((b) => b.project_id === projectId);

  test("deletes on create; an already deleted backup counts as deleted; delete sends nothing", async () => {
    const db = env.emu.world.databases.find((d) => d.user_id === alice())!;
    const oldest = backupsOf(db.id).reduce((a, b) => (a.created_at < b.created_at ? a : b));
    const c = await env.host.check(
      urn,
      {},
      await env.inputs("BackupDeletion", { projectId: db.id, backupId: oldest.id }),
    );
    const created = await env.host.create(urn, c.inputs);
    expect(created.id).toBe(`${db.id}/${oldest.id}`);
    expect(backupsOf(db.id).map((b) => b.id)).not.toContain(oldest.id);

    // A second stack (or a retry after a lost reply) deleting the same backup succeeds.
    const again = await env.host.create(env.urn("BackupDeletion", "again"), c.inputs);
    expect(again.properties.message).toMatch(/already deleted/);

    env.emu.resetStats();
    await env.host.delete(created.id, urn, created.properties);
    expect(env.emu.stats().total).toBe(0);
  });

  test("a backup younger than the retention age fails create and is not recorded", async () => {
    const db = env.emu.world.databases.find((d) => d.user_id === alice())!;
    const young = backupsOf(db.id).reduce((a, b) => (a.created_at > b.created_at ? a : b));
    const c = await env.host.check(
      urn,
      {},
      await env.inputs("BackupDeletion", { projectId: db.id, backupId: young.id }),
    );
    await expect(env.host.create(urn, c.inputs)).rejects.toThrow(/minimum retention age/);
    expect(backupsOf(db.id).map((b) => b.id)).toContain(young.id);
  });
});
