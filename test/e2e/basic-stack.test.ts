import { useEmulators } from "../helpers/emulator";
import { fixtureStack } from "../helpers/fixture-stack";

const emulators = useEmulators();

/*
 * Small fixture stacks through the harness (Pulumi's program runtime and dynamic-provider host).
 * examples/basic end to end runs through the real Pulumi CLI: test/engine/basic-lifecycle.
 */

describe("retainOnDelete", () => {
  test("destroy lets go of the app without deleting it", async () => {
    const emu = await emulators.start({ seed: "retain", setupDelayMs: 0 });
    try {
      const stack = fixtureStack(emu, "retain");
      const up = await stack.up();
      expect(up.ok).toBe(true);
      const down = await stack.destroy();
      expect(down.steps.map((s) => s.op)).toEqual(["retain"]);
      expect(emu.world.apps.map((a) => a.id)).toEqual([up.outputs.appId]);
    } finally {
      await emu.stop();
    }
  });
});

describe("a stack with a bad input", () => {
  test("fails at preview naming the property and the fix, and sends no request", async () => {
    const emu = await emulators.start({ seed: "bad" });
    try {
      const stack = fixtureStack(emu, "bad-input");
      emu.resetStats();
      const r = await stack.preview();
      expect(r.ok).toBe(false);
      const said = r.stderr + r.stdout + r.logs.map((l) => l.message).join("\n");
      expect(said).toMatch(/name: name must be 1-63 letters/);
      expect(said).toMatch(/ram: ram must be at least 128/);
      expect(emu.stats().total).toBe(0);
    } finally {
      await emu.stop();
    }
  });
});
