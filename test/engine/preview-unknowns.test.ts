import { join } from "node:path";
import type { RunningEmulator } from "../../src/emulator";
import { useEmulators } from "../helpers/emulator";
import { describeEngine, ok, opsByName, projectFrom, PulumiStack } from "../helpers/engine";

/*
 * A preview whose inputs are not all known yet must say what the following `up` does: when
 * `api` is replaced, `web`'s source (known only once `api` exists) is unknown at preview, and
 * `web`'s content changed too, so `up` replaces it.
 */

jest.setTimeout(240_000);

const FIXTURE = join(__dirname, "fixtures", "unknowns");

describeEngine("a preview with unknown inputs, through the Pulumi CLI", () => {
  let emu: RunningEmulator;
  const emulators = useEmulators();
  beforeAll(async () => {
    emu = await emulators.start({ seed: "engine-unknowns", setupDelayMs: 0 });
  });

  test("plans for web exactly what up then does", async () => {
    const dir = projectFrom(FIXTURE);
    const stack = new PulumiStack({ dir, project: "unknowns" });
    await stack.init({
      config: { "hosting:apiUrl": emu.url },
      secrets: { "hosting:token": emu.issueToken() },
    });
    ok(await stack.up());
    await stack.setConfig({ "unknowns:version": "2", "unknowns:webDir": "app2" });
    const preview = ok(await stack.preview());
    const up = ok(await stack.up());
    expect(opsByName(up)).toMatchObject({ api: "replace", web: "replace" });
    expect(opsByName(preview)).toEqual(opsByName(up));
    expect(emu.world.apps).toHaveLength(2);
    ok(await stack.destroy());
    expect(emu.world.apps).toEqual([]);
  });
});
