import { spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEmulator } from "../../src/emulator";
import { ROOT } from "../harness/pulumi-parts";
import { programDir } from "../harness/stack-dir";

/*
 * The same example through the real Pulumi CLI, driven by the Automation API with a local file
 * backend. It needs a `pulumi` binary, which these machines cannot install: without one the test
 * is skipped and says so.
 */
const cli = spawnSync("pulumi", ["version"], { encoding: "utf8" });
const hasCli = cli.status === 0;
const reason = hasCli ? `pulumi ${cli.stdout.trim()}` : "skipped: no `pulumi` binary on PATH";
if (!hasCli) console.warn(`automation.test.ts: ${reason}`);

(hasCli ? describe : describe.skip)(`examples/basic through the Pulumi CLI (${reason})`, () => {
  test("up creates the app, a second preview changes nothing, destroy removes it", async () => {
    const { LocalWorkspace } = await import("@pulumi/pulumi/automation");
    const emu = await startEmulator({ seed: "automation", setupDelayMs: 50 });
    const dir = programDir(join(ROOT, "examples", "basic"));
    const backend = mkdtempSync(join(tmpdir(), "pulumi-backend-"));
    try {
      const stack = await LocalWorkspace.createOrSelectStack(
        { stackName: "dev", workDir: dir },
        {
          projectSettings: { name: "hosting-basic", runtime: "nodejs" },
          envVars: { PULUMI_BACKEND_URL: `file://${backend}`, PULUMI_CONFIG_PASSPHRASE: "test" },
        },
      );
      await stack.setConfig("hosting:apiUrl", { value: emu.url });
      await stack.setConfig("hosting:token", { value: emu.issueToken(), secret: true });
      const up = await stack.up();
      expect(up.outputs.appId.value).toBe(emu.world.apps[0].id);
      expect(up.outputs.databaseConnectionUrl.secret).toBe(true);
      const preview = await stack.preview();
      expect(preview.changeSummary.same).toBeGreaterThan(0);
      expect(preview.changeSummary.create ?? 0).toBe(0);
      await stack.destroy();
      expect(emu.world.apps).toHaveLength(0);
    } finally {
      await emu.stop();
    }
  }, 300_000);
});
