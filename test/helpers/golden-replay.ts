import { copyFileSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type { RunningEmulator } from "../../src/emulator";
import { useEmulators } from "./emulator";
import { Deployment, type Step } from "./deployment";
import { programDir } from "./stack-dir";
import { loadState, type StoredState } from "./state";
import { sameProps } from "./values";
import { mutations } from "./steps";

/*
 * Every folder under golden/ is a stack recorded by a release (scripts/record-golden.js): what the
 * engine keeps (inputs, id, outputs, the `__provider` text) and what the emulator kept. The
 * current build must take each one over as it is: preview of the same program clean, refresh
 * clean, destroy through the recorded `__provider`. A failure here means users' stacks break on
 * upgrade: fix it with a migration, never by editing or re-recording the fixture.
 */

const GOLDEN = join(__dirname, "..", "upgrade", "golden");
/** Every recorded release, in a fixed order. */
export const goldenVersions = () =>
  readdirSync(GOLDEN)
    .filter((d) => statSync(join(GOLDEN, d)).isDirectory())
    .sort();

/**
 * The golden states are replayed by SHARDS test files, each taking every SHARDS-th folder, so
 * jest runs them side by side; a new folder lands in a shard without a new file.
 */
export const SHARDS = 2;

interface Recorded {
  version: string;
  project: string;
  stack: string;
  seed: string;
  user: string;
  config: Record<string, string>;
}

/** The loud failure: what broke, for which release, and what to do about it. */
function upgradeBreaks(version: string, what: string, problems: string[]): void {
  if (problems.length === 0) return;
  throw new Error(
    `a state recorded by release ${version} no longer ${what}:\n  ${problems.join("\n  ")}\n` +
      "Users' stacks of that release would break on upgrade: add a migration and a CHANGELOG " +
      `entry; do not edit or re-record test/upgrade/golden/${version}/.`,
  );
}

const notSame = (steps: Step[]) =>
  steps.filter((s) => s.op !== "same").map((s) => `${s.urn}: ${s.op}`);

/** Replays the golden states of shard `shard` (of {@link SHARDS}); see the file comment. */
export function replayGoldenShard(shard: number): void {
  const versions = goldenVersions().filter((_, i) => i % SHARDS === shard);
  if (versions.length === 0) {
    test.skip(`shard ${shard}: no golden state falls to it yet`, () => undefined);
    return;
  }
  describe.each(versions)("the golden state recorded by release %s", replayGolden);
}

function replayGolden(version: string): void {
  const fixture = join(GOLDEN, version);
  const recorded = JSON.parse(readFileSync(join(fixture, "golden.json"), "utf8")) as Recorded;
  let emu: RunningEmulator;
  const emulators = useEmulators();
  let dir: string;
  let stack: Deployment;
  let before: StoredState;

  beforeAll(async () => {
    dir = programDir(join(fixture, "program"));
    for (const f of ["state.json", "state.json.key", "emulator-state.json"]) {
      copyFileSync(join(fixture, f), join(dir, f));
    }
    emu = await emulators.start({
      seed: recorded.seed,
      stateFile: join(dir, "emulator-state.json"),
    });
    before = loadState(join(dir, "state.json"));
    stack = new Deployment({
      programDir: dir,
      providerCwd: dir,
      stateFile: join(dir, "state.json"),
      project: recorded.project,
      stack: recorded.stack,
      config: {
        ...recorded.config,
        "hosting:apiUrl": emu.url,
        // Tokens are never in state or fixtures: a fresh one for the recorded user.
        "hosting:token": emu.issueToken(recorded.user),
      },
      secretConfigKeys: ["hosting:token"],
    });
  });

  test("holds no API token, and every resource carries its __provider text", () => {
    for (const f of readdirSync(fixture, { recursive: true, encoding: "utf8" })) {
      if (statSync(join(fixture, f)).isDirectory()) continue;
      const text = readFileSync(join(fixture, f), "utf8");
      expect({ f, jwt: /eyJ[\w-]+\.[\w-]+\.[\w-]+/.test(text) }).toEqual({ f, jwt: false });
      expect({ f, bearer: /Bearer/i.test(text) }).toEqual({ f, bearer: false });
    }
    expect(before.resources.length).toBeGreaterThan(0);
    for (const r of before.resources) {
      expect(typeof r.inputs.__provider).toBe("string");
    }
  });

  test("preview of the same program shows every resource unchanged and sends no change", async () => {
    emu.resetStats();
    const r = await stack.preview();
    upgradeBreaks(version, "previews", r.ok ? [] : [`preview failed (${r.code}): ${r.stderr}`]);
    const missing = before.resources
      .filter((x) => !r.steps.some((s) => s.urn === x.urn))
      .map((x) => `${x.urn}: not planned`);
    upgradeBreaks(version, "previews clean", [...notSame(r.steps), ...missing]);
    upgradeBreaks(
      version,
      "previews without side effects",
      mutations(emu) > 0 ? [JSON.stringify(emu.stats().requests)] : [],
    );
  });

  test("refresh finds no drift: ids, inputs and outputs stay as recorded", async () => {
    emu.resetStats();
    const r = await stack.refresh();
    const after = loadState(join(dir, "state.json"));
    const problems = notSame(r.steps);
    for (const old of before.resources) {
      const now = after.resources.find((x) => x.urn === old.urn);
      if (!now) problems.push(`${old.urn}: gone after refresh`);
      else {
        // No exceptions: the replay's emulator URL and token never reach the state.
        if (now.id !== old.id) problems.push(`${old.urn}: id ${old.id} → ${now.id}`);
        for (const part of ["inputs", "outputs"] as const) {
          for (const key of new Set([...Object.keys(old[part]), ...Object.keys(now[part])])) {
            const [was, is] = [old[part][key], now[part][key]];
            if (!sameProps({ v: was }, { v: is })) {
              problems.push(
                `${old.urn}: ${part}.${key} ${JSON.stringify(was)} → ${JSON.stringify(is)}`,
              );
            }
          }
        }
      }
    }
    upgradeBreaks(version, "refreshes clean", problems);
    expect(mutations(emu)).toBe(0);
  });

  test("destroy deletes everything through the recorded __provider; nothing of it is left", async () => {
    const apps = before.resources.filter((r) => r.urn.includes(":App::")).map((r) => r.id);
    expect(apps.length).toBeGreaterThan(0);
    const r = await stack.destroy().catch((err: Error) => {
      upgradeBreaks(version, "destroys", [err.message]);
      throw err;
    });
    upgradeBreaks(
      version,
      "destroys",
      r.steps.filter((s) => s.op !== "delete").map((s) => `${s.urn}: ${s.op}`),
    );
    expect(r.steps).toHaveLength(before.resources.length);
    expect(loadState(join(dir, "state.json")).resources).toEqual([]);
    // The apps (and with them the custom domain, web access and analytics) are gone.
    const left = emu.world.apps.filter((a) => apps.includes(a.id));
    upgradeBreaks(
      version,
      "destroys everything",
      left.map((a) => `app ${a.id} (${a.name}) is still on the service`),
    );
  });
}
