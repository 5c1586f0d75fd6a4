import * as pulumi from "@pulumi/pulumi";
import { useEmulator } from "../helpers/emulator";
import { useProgramEnv } from "../helpers/program-env";

/*
 * The plain action functions inside a program being previewed: Pulumi's own mocks in preview
 * mode make `pulumi.runtime.isDryRun()` true, as `pulumi preview` does.
 */

const env = useEmulator({ setupDelayMs: 0 });

pulumi.runtime.setMocks(
  { newResource: (a) => ({ id: `${a.name}-id`, state: a.inputs }), call: (a) => a.inputs },
  "hosting",
  "test",
  true,
);
// eslint-disable-next-line @typescript-eslint/no-require-imports
const hosting = require("../../src") as typeof import("../../src");

useProgramEnv(env);

test("during a preview the action functions refuse, point at the resource and send nothing", async () => {
  expect(pulumi.runtime.isDryRun()).toBe(true);
  const vm = env.emu.world.vms.find((v) => v.user_id === env.emu.users[0].id)!;
  vm.running = false;
  env.emu.resetStats();
  await expect(hosting.startVm({ vmId: vm.id })).rejects.toThrow(
    /startVm was called during a preview.*use the VmStart resource/,
  );
  await expect(hosting.retryDatabaseSetup({ databaseId: "db" })).rejects.toThrow(
    /DatabaseSetupRetry resource/,
  );
  await expect(hosting.deleteBackup({ projectId: "p", backupId: "b" })).rejects.toThrow(
    /BackupDeletion resource/,
  );
  expect(env.emu.stats().total).toBe(0);
  expect(vm.running).toBe(false);
});
