import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { RunningEmulator } from "../../src/emulator";
import { useEmulators } from "../helpers/emulator";
import { ROOT } from "../helpers/pulumi-parts";
import { exampleConfig } from "../helpers/example-config";
import { mutations } from "../helpers/steps";
import { copyExample, standInsOf } from "../helpers/copied-example";
import { describeEngine, ok, opsByName, type PulumiStack } from "../helpers/engine";

const emulators = useEmulators();

/*
 * Every example works once its folder is copied out of the repository: copied to a fresh folder
 * outside it, installed from its own package.json (pulumi-hosting from the packed tarball), and
 * run through the real Pulumi CLI against the emulator with the config its comments name:
 * preview changes nothing, up makes what the example says, destroy leaves nothing.
 */

jest.setTimeout(480_000);

const EXAMPLES = join(ROOT, "examples");

/** The connection, as each example's comments say to set it: in the stack config. */
const connection = (emu: RunningEmulator) => ({
  config: { "hosting:apiUrl": emu.url },
  secrets: { "hosting:token": emu.issueToken() },
});

/**
 * An example's run: a fresh emulator, its copy and a stack of the copy, then `fn`. `env` gives
 * extra environment for every `pulumi` command, from the folder the copy is in.
 */
async function withCopy(
  name: string,
  fn: (emu: RunningEmulator, stack: PulumiStack, dir: string) => Promise<void>,
  env: (parent: string) => Record<string, string> = () => ({}),
) {
  const emu = await emulators.start({ seed: `copied-${name}`, setupDelayMs: 0 });
  try {
    const copy = await copyExample(name);
    const { config, secrets } = connection(emu);
    const extra = exampleConfig[name]?.(emu) ?? {};
    const stack = await copy.stack(env(dirname(copy.dir)), { ...config, ...extra }, secrets);
    await fn(emu, stack, copy.dir);
  } finally {
    await emu.stop();
  }
}

/** A preview that plans only creates and sends nothing that changes the service. */
async function previewCreatesOnly(emu: RunningEmulator, stack: PulumiStack) {
  emu.resetStats();
  const r = ok(await stack.preview());
  expect(new Set(Object.values(opsByName(r)))).toEqual(new Set(["create"]));
  expect(mutations(emu)).toBe(0);
  return r;
}

describeEngine("each example copied out of the repository, through the Pulumi CLI", () => {
  test("every example is a project of its own: Pulumi.yaml and package.json in its folder", () => {
    const programs = readdirSync(EXAMPLES).filter((d) => existsSync(join(EXAMPLES, d, "index.ts")));
    expect(programs.sort()).toEqual(["basic", "cloudflare-dns", "maintenance", "unit-testing"]);
    for (const name of programs) {
      expect([name, existsSync(join(EXAMPLES, name, "Pulumi.yaml"))]).toEqual([name, true]);
      expect([name, existsSync(join(EXAMPLES, name, "package.json"))]).toEqual([name, true]);
    }
  });

  test("examples/basic: preview, up (app, domain, web access, analytics), destroy", async () => {
    await withCopy("basic", async (emu, stack) => {
      const preview = await previewCreatesOnly(emu, stack);
      expect(Object.keys(opsByName(preview))).toEqual(
        expect.arrayContaining(["web", "www", "web-access", "analytics"]),
      );
      ok(await stack.up());
      expect(emu.world.apps.map((a) => [a.name, a.domain?.hostname])).toEqual([
        ["basic-web", "www.basic.pointed.test"],
      ]);
      const out = await stack.outputs();
      expect(out.appUrl).toBe("https://www.basic.pointed.test");
      expect(out.runtime).toMatch(/^node \d+\.\d+\.\d+$/);
      expect(out.databaseConnectionUrl).toBe("[secret]");
      ok(await stack.destroy());
      expect(emu.world.apps).toEqual([]);
    });
  });

  test("examples/maintenance: preview acts not, up starts the VM and deletes the backup once", async () => {
    await withCopy("maintenance", async (emu, stack) => {
      const me = emu.users[0].id;
      const vm = emu.world.vms.find((v) => v.user_id === me)!;
      vm.running = false;
      const backups = emu.world.backups.length;
      await previewCreatesOnly(emu, stack);
      expect(vm.running).toBe(false);
      ok(await stack.up());
      expect(vm.running).toBe(true);
      expect(emu.world.backups).toHaveLength(backups - 1);
      expect((await stack.outputs()).vmStarted).toMatch(/starting/);
      emu.resetStats();
      ok(await stack.destroy());
      // Removing an action from the program changes nothing on the service.
      expect(mutations(emu)).toBe(0);
    });
  });

  test("examples/unit-testing: its own jest suite passes in the copy, and the program deploys", async () => {
    await withCopy("unit-testing", async (emu, stack, dir) => {
      // `npm test` in the copy: jest and ts-jest as its package.json configures them.
      const jest = spawnSync(
        process.execPath,
        [join(dir, "node_modules", "jest", "bin", "jest.js")],
        {
          cwd: dir,
          encoding: "utf8",
          env: { ...process.env, CI: "true" },
          timeout: 180_000,
        },
      );
      expect({ code: jest.status, out: jest.stderr.slice(-3000) }).toMatchObject({ code: 0 });
      expect(jest.stderr).toMatch(/Tests:\s+3 passed, 3 total/);

      await previewCreatesOnly(emu, stack);
      ok(await stack.up());
      expect(emu.world.apps.map((a) => [a.name, a.env_keys])).toEqual([["api", ["DATABASE_URL"]]]);
      expect((await stack.outputs()).runtimeVersion).toMatch(/^\d+\.\d+\.\d+$/);
      ok(await stack.destroy());
      expect(emu.world.apps).toEqual([]);
    });
  });

  const cloudflareStandIns = standInsOf("cloudflare-dns");
  test(`examples/cloudflare-dns with ${cloudflareStandIns.join(", ")} as a local stand-in: records in the zone, a count mismatch stops before any is made`, async () => {
    const zoneIn = (parent: string) => join(parent, "zone.json");
    await withCopy(
      "cloudflare-dns",
      async (emu, stack, dir) => {
        const zone = zoneIn(dirname(dir));
        const records = () =>
          existsSync(zone)
            ? (JSON.parse(readFileSync(zone, "utf8")) as Array<Record<string, unknown>>)
                .map(({ name, type, content }) => ({ name, type, content }))
                .sort((a, b) => String(a.name).localeCompare(String(b.name)))
            : [];
        // Every record shows in the preview, though dnsRecords is not known yet.
        const preview = await previewCreatesOnly(emu, stack);
        expect(opsByName(preview)).toMatchObject({
          edge: "create",
          www: "create",
          "ownership-0": "create",
          "ssl-0": "create",
        });
        expect(records()).toEqual([]);

        ok(await stack.up());
        const domain = emu.world.apps[0].domain!;
        expect(records()).toEqual([
          { name: `_acme-challenge.${domain.hostname}`, type: "TXT", content: domain.ssl_value },
          {
            name: `_hosting-verify.${domain.hostname}`,
            type: "TXT",
            content: domain.ownership_value,
          },
          { name: "www.cf.pointed.test", type: "CNAME", content: "edge.hosting-emulator.test" },
        ]);

        // A user declares a second SSL slot the platform does not ask for: the preview says what
        // to fix, and the up changes no record (every validation slot is refused, none is made).
        const program = join(dir, "index.ts");
        const text = readFileSync(program, "utf8");
        const oneSsl = '  { purpose: "ssl", index: 0 },\n';
        expect(text).toContain(oneSsl);
        writeFileSync(program, text.replace(oneSsl, `${oneSsl}  { purpose: "ssl", index: 1 },\n`));
        const before = records();
        for (const run of [await stack.preview(), await stack.up()]) {
          expect(run.ok).toBe(false);
          expect(run.stdout + run.stderr).toContain(
            "the platform asks for 1 ssl record(s), this program declares 2",
          );
          expect(run.stdout + run.stderr).not.toContain("unhandled exception");
        }
        expect(records()).toEqual(before);

        ok(await stack.destroy());
        expect(records()).toEqual([]);
        expect(emu.world.apps).toEqual([]);
      },
      (parent) => ({ CLOUDFLARE_STAND_IN_ZONE: zoneIn(parent) }),
    );
  });
});
