import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { useEmulators } from "../helpers/emulator";
import { describeEngine, projectFrom } from "../helpers/engine";
import { engine, engineEnv } from "../helpers/pulumi";
import { ROOT } from "../helpers/pulumi-parts";

const emulators = useEmulators();

/*
 * The same example through the Automation API (`@pulumi/pulumi/automation`), the door for users
 * who drive Pulumi from their own code, over the real CLI that test/engine/ uses.
 */

describeEngine("examples/basic through the Automation API", () => {
  test("up creates the app, a second preview changes nothing, destroy removes it", async () => {
    const { LocalWorkspace, PulumiCommand } = await import("@pulumi/pulumi/automation");
    const found = engine();
    if ("missing" in found) throw new Error(found.missing);
    const emu = await emulators.start({ seed: "automation", setupDelayMs: 50 });
    const dir = projectFrom(join(ROOT, "examples", "basic"));
    // A project's own package.json: without one, Pulumi's runtime takes the `main` of the nearest
    // package.json above (this repository's).
    writeFileSync(join(dir, "package.json"), '{ "name": "hosting-basic", "main": "index.ts" }\n');
    try {
      const where = {
        binDir: found.binDir,
        home: join(dir, ".pulumi-home"),
        backend: join(dir, ".pulumi-state"),
      };
      mkdirSync(where.backend);
      const stack = await LocalWorkspace.createOrSelectStack(
        { stackName: "dev", workDir: dir },
        {
          pulumiCommand: await PulumiCommand.get({
            root: dirname(found.binDir),
            skipVersionCheck: true,
          }),
          projectSettings: { name: "hosting-basic", runtime: "nodejs" },
          envVars: engineEnv(where) as Record<string, string>,
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
