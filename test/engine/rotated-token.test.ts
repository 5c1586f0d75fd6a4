import { join } from "node:path";
import { useEmulators } from "../helpers/emulator";
import { describeEngine, ok, projectFrom, PulumiStack } from "../helpers/engine";

const emulators = useEmulators();

/*
 * A token rotated in the stack config after the last `up`. The engine keeps the stack config of
 * the last `up` as the dynamic provider's inputs, and `pulumi destroy` (and `refresh`) configure
 * the provider from there: what the README tells a user to do, observed.
 */

jest.setTimeout(240_000);

const FIXTURE = join(__dirname, "fixtures", "one-app");

describeEngine("a token rotated after the last up, through the Pulumi CLI", () => {
  test("plain refresh uses the token of the last up; destroy --run-program today's config", async () => {
    const emu = await emulators.start({ seed: "engine-rotate", setupDelayMs: 0 });
    try {
      const stack = new PulumiStack({ dir: projectFrom(FIXTURE), project: "crash" });
      const token = emu.issueToken();
      await stack.init({
        config: { "hosting:apiUrl": emu.url },
        secrets: { "hosting:token": token },
      });
      ok(await stack.up());
      // Today's config: a token of the right shape whose signature the service rejects.
      const rejected = token.slice(0, -4) + (token.endsWith("AAAA") ? "BBBB" : "AAAA");
      await stack.setConfig({}, { "hosting:token": rejected });

      // A plain refresh configures the provider from state: the recorded (good) token.
      ok(await stack.refresh());
      // destroy --run-program runs the program, so today's config: the rejected token.
      const fresh = await stack.destroy(["--run-program"]);
      expect(fresh.code).not.toBe(0);
      expect(`${fresh.stdout}\n${fresh.stderr}`).toMatch(/401/);
      expect(emu.world.apps).toHaveLength(1);

      await stack.setConfig({}, { "hosting:token": emu.issueToken() });
      ok(await stack.destroy(["--run-program"]));
      expect(emu.world.apps).toEqual([]);
    } finally {
      await emu.stop();
    }
  });
});
