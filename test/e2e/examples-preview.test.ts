import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { RunningEmulator } from "../../src/emulator";
import { useEmulators } from "../helpers/emulator";
import { Deployment, type RunResult } from "../helpers/deployment";
import { ROOT } from "../helpers/pulumi-parts";
import { programDir } from "../helpers/stack-dir";
import { exampleConfig } from "../helpers/example-config";
import { mutations, ops } from "../helpers/steps";
import { stepwise } from "../helpers/stepwise";

const emulators = useEmulators();

/*
 * Nothing with a side effect runs during a preview: every example program in examples/ is
 * previewed through Pulumi's program runtime against the emulator, which counts the requests.
 */

const EXAMPLES = join(ROOT, "examples");
const ok = (r: RunResult) => {
  if (!r.ok) throw new Error(`deployment failed (${r.code}):\n${r.stderr}\n${r.stdout}`);
  return r;
};

/** Packages an example imports that are not installed here (e.g. @pulumi/cloudflare). */
function missingImports(dir: string): string[] {
  const text = readFileSync(join(dir, "index.ts"), "utf8");
  const imported = [...text.matchAll(/from "([^".][^"]*)"/g)].map((m) => m[1]);
  return imported.filter((id) => {
    if (id === "pulumi-hosting" || id.startsWith("node:")) return false;
    try {
      require.resolve(id, { paths: [ROOT] });
      return false;
    } catch {
      return true;
    }
  });
}

/** A deployment of an example's copy in `dir` (a fresh copy unless given), with extra config. */
function stackFor(
  emu: RunningEmulator,
  name: string,
  extra: Record<string, string> = {},
  dir = programDir(join(EXAMPLES, name)),
): Deployment {
  const project = `hosting-${name}`;
  return new Deployment({
    programDir: dir,
    providerCwd: dir,
    stateFile: join(dir, "state.json"),
    project,
    config: {
      "hosting:apiUrl": emu.url,
      "hosting:token": emu.issueToken(),
      ...(exampleConfig[name]?.(emu) ?? {}),
      ...extra,
    },
    secretConfigKeys: ["hosting:token"],
  });
}

const programs = readdirSync(EXAMPLES).filter((d) => existsSync(join(EXAMPLES, d, "index.ts")));

describe("a preview of every example sends no mutating request", () => {
  test("there are examples to preview", () => {
    expect(programs).toEqual(expect.arrayContaining(["basic", "maintenance"]));
  });

  // Previewed as the first step of a longer test, with the same assertions: examples/basic in
  // basic-stack.test.ts ("preview of a new stack plans every create and changes nothing"),
  // examples/maintenance below.
  const previewedElsewhere = ["basic", "maintenance"];
  for (const name of programs.filter((n) => !previewedElsewhere.includes(n))) {
    const missing = missingImports(join(EXAMPLES, name));
    // Skipped, and saying why, only when the example needs a package this repository lacks.
    const run = missing.length > 0 ? test.skip : test;
    run(`examples/${name}${missing.length ? ` (needs ${missing.join(", ")})` : ""}`, async () => {
      const emu = await emulators.start({ seed: `preview-${name}`, setupDelayMs: 0 });
      try {
        const stack = stackFor(emu, name);
        emu.resetStats();
        const r = ok(await stack.preview());
        expect(r.steps.length).toBeGreaterThan(0);
        expect(new Set(r.steps.map((s) => s.op))).toEqual(new Set(["create"]));
        expect(mutations(emu)).toBe(0);
      } finally {
        await emu.stop();
      }
    });
  }
});

describe("examples/maintenance: actions as resources", () => {
  const step = stepwise(60_000);
  // One stack, step by step: each test takes the state the one before it left.
  let emu: RunningEmulator;
  let dir: string;
  let config: Record<string, string>;
  let stack: Deployment;
  let vm: RunningEmulator["world"]["vms"][number];
  beforeAll(async () => {
    emu = await emulators.start({ seed: "maintenance", setupDelayMs: 0 });
    dir = programDir(join(EXAMPLES, "maintenance"));
    // Fixed once: the "oldest backup" changes after the first one is deleted.
    config = exampleConfig.maintenance(emu);
    stack = stackFor(emu, "maintenance", config, dir);
    const me = emu.users[0].id;
    vm = emu.world.vms.find((v) => v.user_id === me)!;
    vm.running = false;
  });

  step("a preview of the new stack plans every create and acts not", async () => {
    emu.resetStats();
    const r = ok(await stack.preview());
    expect(r.steps.length).toBeGreaterThan(0);
    expect(new Set(r.steps.map((s) => s.op))).toEqual(new Set(["create"]));
    expect(mutations(emu)).toBe(0);
    expect(vm.running).toBe(false);
  });

  step("up acts once: the VM starts, the oldest backup goes", async () => {
    const backupsBefore = emu.world.backups.length;
    const up = ok(await stack.up());
    expect(ops(up)).toEqual({
      VmStart: "create",
      DatabaseSetupRetry: "create",
      BackupDeletion: "create",
    });
    expect(vm.running).toBe(true);
    expect(emu.world.backups).toHaveLength(backupsBefore - 1);
    expect(up.outputs.vmStarted).toMatch(/starting/);
  });

  step("an unchanged up does nothing", async () => {
    emu.resetStats();
    vm.running = false;
    const again = ok(await stack.up());
    expect(new Set(again.steps.map((s) => s.op))).toEqual(new Set(["same"]));
    expect(mutations(emu)).toBe(0);
    expect(vm.running).toBe(false);
  });

  step("a bumped trigger previews as an update without acting, then up acts once", async () => {
    const bumped = stackFor(
      emu,
      "maintenance",
      { ...config, "hosting-maintenance:startRound": "2" },
      dir,
    );
    emu.resetStats();
    const p = ok(await bumped.preview());
    expect(ops(p)).toMatchObject({ VmStart: "update", DatabaseSetupRetry: "same" });
    expect(mutations(emu)).toBe(0);
    const u = ok(await bumped.up());
    expect(ops(u)).toMatchObject({ VmStart: "update", DatabaseSetupRetry: "same" });
    expect(vm.running).toBe(true);
    expect(emu.stats().requests["POST /vms/{vm_id}/start"]).toBe(1);
    expect(mutations(emu)).toBe(1);
  });
});
