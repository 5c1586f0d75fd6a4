import { execSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { spawnEmulator } from "../harness/spawn-emulator";
import { ROOT } from "../harness/pulumi-parts";
import { workDir } from "../harness/run-folders";
import { describeEngine, ok, projectFrom, PulumiStack } from "./engine";

/*
 * The README's "Your own program, from an empty folder", followed through the real CLI: its
 * index.ts and app one-liner in a fresh project, the emulator's bin started as the README says
 * (on port 0 here), the connection from what it printed, then preview, up, destroy, stack rm.
 */

jest.setTimeout(300_000);

/** The section's text, from its heading to the next one. */
function section(): string {
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");
  const start = readme.indexOf("## Your own program, from an empty folder");
  expect(start).toBeGreaterThan(0);
  return readme.slice(start, readme.indexOf("\n## ", start + 1));
}

describeEngine("the README's own program, through the Pulumi CLI and the emulator's bin", () => {
  test("preview makes nothing, up makes the app, destroy and stack rm leave nothing", async () => {
    const text = section();
    const blocks = [...text.matchAll(/```(\w+)\n([\s\S]*?)```/g)].map(([, lang, body]) => ({
      lang,
      body,
    }));
    const program = blocks.find((b) => b.lang === "ts")!.body;
    const setup = blocks.find((b) => b.lang === "sh")!.body;
    // The README's shell one-liner that writes the app.
    const appLine = setup.split("\n").find((l) => l.startsWith("mkdir app && echo"))!;

    // An empty folder to start from, in this run's own folder (the next run sweeps it).
    const dir = projectFrom(mkdtempSync(join(workDir(), "own-")));
    writeFileSync(join(dir, "index.ts"), program);
    execSync(appLine, { cwd: dir, shell: "/bin/sh" });
    expect(text).toContain("npx hosting-emulator --port 8080 --seed demo");
    const emu = await spawnEmulator(["--port", "0", "--seed", "demo"]);
    try {
      const stack = new PulumiStack({
        dir,
        project: "shop",
        stack: "dev",
        env: { HOSTING_API_URL: emu.url, HOSTING_TOKEN: emu.token },
      });
      await stack.init();
      const preview = ok(await stack.preview());
      expect(preview.stdout).toContain("hosting:App");
      const apps = async () =>
        (await (
          await fetch(`${emu.url}/apps`, { headers: { authorization: `Bearer ${emu.token}` } })
        ).json()) as Array<{ app: { name: string; subdomain: string } }>;
      expect(await apps()).toEqual([]);
      ok(await stack.up());
      const made = await apps();
      expect(made.map((a) => a.app.name)).toEqual(["shop-web"]);
      expect((await stack.outputs()).subdomain).toBe(made[0].app.subdomain);
      ok(await stack.destroy());
      await stack.ok(["stack", "rm", "--yes", "--stack", "dev"]);
      expect(await apps()).toEqual([]);
    } finally {
      await emu.stop();
    }
  });
});
