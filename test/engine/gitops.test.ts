import { join } from "node:path";
import { useEmulators } from "../helpers/emulator";
import { ROOT } from "../helpers/pulumi-parts";
import { mutations } from "../helpers/steps";
import { describeEngine, ok, opsByName, projectFrom, PulumiStack } from "../helpers/engine";
import { tokenFormsIn } from "../helpers/token-forms";

const emulators = useEmulators();

/*
 * examples/gitops runs the CLI with the token and URL in the environment (HOSTING_TOKEN,
 * HOSTING_API_URL), never in the stack config: the pull request's `preview --diff`, then main's
 * `up`, then a destroy, through the real CLI.
 */

jest.setTimeout(240_000);

describeEngine("examples/basic as examples/gitops deploys it, through the Pulumi CLI", () => {
  test("preview --diff, up and destroy with the connection in the environment only", async () => {
    const emu = await emulators.start({ seed: "engine-gitops", setupDelayMs: 0 });
    try {
      const token = emu.issueToken();
      const env = { HOSTING_API_URL: emu.url, HOSTING_TOKEN: token };
      const stack = new PulumiStack({
        dir: projectFrom(join(ROOT, "examples", "basic")),
        project: "hosting-basic",
        env,
      });
      await stack.init();
      emu.resetStats();
      const preview = ok(await stack.preview(["--diff"]));
      expect(opsByName(preview)).toMatchObject({ web: "create", www: "create" });
      expect(mutations(emu)).toBe(0);
      ok(await stack.up());
      expect(emu.world.apps).toHaveLength(1);
      ok(await stack.preview(["--expect-no-changes"]));
      // Neither the state nor anything the CLI printed holds the token.
      const { text } = await stack.exportState();
      expect(tokenFormsIn(text, token)).toEqual([]);
      ok(await stack.destroy());
      expect(emu.world.apps).toEqual([]);
    } finally {
      await emu.stop();
    }
  });
});
