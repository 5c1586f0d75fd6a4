import { appendFileSync } from "node:fs";
import { join } from "node:path";
import { useEmulators } from "../helpers/emulator";
import { describeEngine, ok, opsByName, projectFrom, PulumiStack } from "../helpers/engine";

const emulators = useEmulators();

/*
 * examples/gitops/review.yml's lifecycle through the real CLI against the emulator: production
 * up, a pull request opened (stack pr-<n>, up), pushed to (up again), a second one in parallel on
 * the same token, both closed (destroy, stack rm). The service ends with production alone.
 */

jest.setTimeout(480_000);

describeEngine("a review environment per pull request, through the Pulumi CLI", () => {
  test("open, push, a second in parallel, close: production untouched, nothing left", async () => {
    const emu = await emulators.start({ seed: "engine-review", setupDelayMs: 0 });
    try {
      const env = { HOSTING_API_URL: emu.url, HOSTING_TOKEN: emu.issueToken() };
      const fixture = join(__dirname, "fixtures", "review");
      const stackOf = (name: string) =>
        new PulumiStack({ dir: projectFrom(fixture), project: "shop", stack: name, env });
      const prod = await stackOf("prod").init();
      ok(await prod.up());
      const production = emu.world.apps.map((a) => ({ ...a }));
      expect(production.map((a) => [a.name, a.domain?.hostname])).toEqual([
        ["shop", "www.shop.pointed.test"],
      ]);

      const [pr1, pr2] = await Promise.all([stackOf("pr-1").init(), stackOf("pr-2").init()]);
      await pr2.setConfig({ appsDomain: "apps.review.test" });
      ok(await pr1.up());
      const first = emu.world.apps.find((a) => a.name === "shop-pr-1")!;
      // A push to pull request 1 while pull request 2 opens, on the same token.
      appendFileSync(join(pr1.dir, "app", "index.js"), "// pushed\n");
      const [pushed, opened] = await Promise.all([pr1.up(), pr2.up()]);
      ok(pushed);
      ok(opened);
      expect(emu.world.apps.map((a) => a.name).sort()).toEqual(["shop", "shop-pr-1", "shop-pr-2"]);
      // No subdomain pinned: the push replaced the app, the new one before the old one went
      // (create before delete), and the platform assigned the new one a subdomain of its own.
      const replaced = emu.world.apps.find((a) => a.name === "shop-pr-1")!;
      expect(replaced.id).not.toBe(first.id);
      expect(replaced.subdomain).not.toBe(first.subdomain);
      expect(opsByName(pushed)).toEqual({ web: "replace" });
      const order = pushed.steps.filter((st) => st.name === "web").map((st) => st.op);
      expect(order).toEqual(["create-replacement", "replace", "delete-replaced"]);
      expect(await pr1.outputs()).toEqual({ subdomain: replaced.subdomain });
      const second = emu.world.apps.find((a) => a.name === "shop-pr-2")!;
      expect(await pr2.outputs()).toEqual({
        subdomain: second.subdomain,
        appUrl: `https://${second.subdomain}.apps.review.test`,
      });

      for (const pr of [pr1, pr2]) {
        ok(await pr.destroy());
        await pr.ok(["stack", "rm", "--yes", "--stack", pr.stack]);
      }
      expect(emu.world.apps).toEqual(production);
    } finally {
      await emu.stop();
    }
  });
});
