import type { RunningEmulator } from "../../src/emulator";
import { useEmulators } from "../helpers/emulator";
import type { RunResult } from "../helpers/deployment";
import { fixtureStack } from "../helpers/fixture-stack";

/*
 * A failing `up`, as Pulumi's program runtime reports it: each failure once, in a few lines,
 * without Pulumi's "error serializing property" chains, promise dumps or undefined fields.
 * (These runs took 2.5-5 minutes and 3.5-4 GB each before: Node 20.20's error formatting looped
 * on a frame Pulumi's source maps give; the README's Troubleshooting has the figures.)
 */

let emu: RunningEmulator;
const emulators = useEmulators();
beforeAll(async () => {
  emu = await emulators.start({ seed: "failing", setupDelayMs: 0 });
});

/** The error-level messages of a run (Pulumi's log severity 3). */
const errors = (r: RunResult) => r.logs.filter((l) => l.severity === 3).map((l) => l.message);

function expectSaidOnce(r: RunResult, words: string): string {
  expect(r.ok).toBe(false);
  const said = errors(r);
  expect(said).toHaveLength(1);
  expect(said[0].split(words)).toHaveLength(2);
  for (const noise of ["error serializing property", "undefined", "Promise", "Circular", "<ref"]) {
    expect(said[0]).not.toContain(noise);
  }
  return said[0];
}

test("a data source failing under three resources is said once, with its code", async () => {
  const r = await fixtureStack(emu, "failing-data-source").up();
  const said = expectSaidOnce(r, 'no runtime versions for language "cobol"; available: node');
  expect(said).toContain("HostingInputError:");
  // Printed by Pulumi's handler for the program's rejections (with the fields that are set) or,
  // when the rejection comes after the program's last line ran, as the stack alone.
  expect(emu.world.apps).toHaveLength(0);
});

test("a misspelt source is refused in the program, naming the folder it meant, before any request", async () => {
  emu.resetStats();
  const r = await fixtureStack(emu, "missing-source").up();
  const said = expectSaidOnce(r, "does not exist: did you mean");
  expect(said).toMatch(/source ".*\/ap" does not exist: did you mean ".*\/app"\?/);
  expect(emu.stats().total).toBe(0);
});
