import { copyFileSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { RunningEmulator } from "../../src/emulator";
import { useEmulators } from "../helpers/emulator";
import { loadState } from "../helpers/state";
import { mutations } from "../helpers/steps";
import { goldenVersions } from "../helpers/golden-replay";
import { describeEngine, ok, projectFrom, PulumiStack } from "../helpers/engine";
import { toCheckpoint } from "../helpers/golden-state";

/*
 * Every golden state an earlier release recorded, taken over by the real engine with today's
 * package: `pulumi stack import`, then a preview with no change, a refresh with no drift, and a
 * destroy (which runs each resource's recorded `__provider` text) that leaves nothing behind.
 */

jest.setTimeout(240_000);

const GOLDEN = join(__dirname, "..", "upgrade", "golden");

interface Recorded {
  project: string;
  stack: string;
  seed: string;
  user: string;
  config: Record<string, string>;
}

describeEngine("golden upgrade states through the Pulumi CLI", () => {
  describe.each(goldenVersions())("the state recorded by release %s", (version) => {
    const fixture = join(GOLDEN, version);
    const recorded = JSON.parse(readFileSync(join(fixture, "golden.json"), "utf8")) as Recorded;
    const before = loadState(join(fixture, "state.json"));
    let emu: RunningEmulator;
    const emulators = useEmulators();
    let stack: PulumiStack;

    beforeAll(async () => {
      const dir = projectFrom(join(fixture, "program"));
      copyFileSync(join(fixture, "emulator-state.json"), join(dir, "emulator-state.json"));
      emu = await emulators.start({
        seed: recorded.seed,
        stateFile: join(dir, "emulator-state.json"),
      });
      stack = new PulumiStack({ dir, project: recorded.project, stack: recorded.stack });
      const config = { ...recorded.config, "hosting:apiUrl": emu.url };
      const token = emu.issueToken(recorded.user);
      await stack.init({ config, secrets: { "hosting:token": token } });
      const empty = (await stack.exportState()).deployment;
      const where = { project: recorded.project, stack: recorded.stack };
      const providerConfig = { ...config, "hosting:token": token };
      await stack.importState(
        toCheckpoint(before, empty, where, providerConfig, ["hosting:token"]),
      );
    });

    test("imports, and previews with no change and no request that changes anything", async () => {
      expect((await stack.resources()).map((r) => r.urn).sort()).toEqual(
        before.resources.map((r) => r.urn).sort(),
      );
      emu.resetStats();
      ok(await stack.preview(["--expect-no-changes"]));
      expect(mutations(emu)).toBe(0);
    });

    test("refreshes with no drift: ids and outputs stay as recorded", async () => {
      ok(await stack.refresh(["--expect-no-changes"]));
      const now = await stack.resources();
      for (const old of before.resources) {
        const r = now.find((x) => x.urn === old.urn);
        expect({ urn: old.urn, id: r?.id }).toEqual({ urn: old.urn, id: old.id });
      }
    });

    test("destroys through the recorded __provider, leaving none of its apps", async () => {
      const apps = before.resources.filter((r) => r.urn.includes(":App::")).map((r) => r.id);
      expect(apps.length).toBeGreaterThan(0);
      ok(await stack.destroy());
      expect(await stack.resources()).toEqual([]);
      expect(emu.world.apps.filter((a) => apps.includes(a.id))).toEqual([]);
    });
  });
});
