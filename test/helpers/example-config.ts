import type { RunningEmulator } from "../../src/emulator";

/*
 * The stack config each example in examples/ needs beyond the connection (hosting:apiUrl and
 * hosting:token), made from what the emulator's seeded world holds. An example not listed needs
 * none. Shared by the harness preview of every example and the copies run through the CLI.
 */
export const exampleConfig: Record<string, (emu: RunningEmulator) => Record<string, string>> = {
  "unit-testing": () => ({ "hosting-unit-testing:database": "alice-postgres" }),
  maintenance: (emu) => {
    const me = emu.users[0].id;
    const db = emu.world.databases.find((d) => d.user_id === me && d.service_type === "postgres")!;
    const oldest = emu.world.backups
      .filter((b) => b.project_id === db.id)
      .reduce((a, b) => (a.created_at < b.created_at ? a : b));
    return {
      "hosting-maintenance:vmId": emu.world.vms.find((v) => v.user_id === me)!.id,
      "hosting-maintenance:database": db.name,
      "hosting-maintenance:deleteBackups": JSON.stringify([oldest.id]),
    };
  },
  "cloudflare-dns": () => ({
    "hosting-cloudflare-dns:zoneId": "zone-1",
    // Under the emulator, a name ending in .pointed.test counts as CNAME'd to its edge already.
    "hosting-cloudflare-dns:domain": "www.cf.pointed.test",
    // What the emulator answers as the edge target (`cname`) of an attached domain.
    "hosting-cloudflare-dns:edgeTarget": "edge.hosting-emulator.test",
  }),
};
