import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { workDir } from "./run-folders";
import { programDir } from "./stack-dir";
import { PulumiStack, engine, type EngineRun } from "./pulumi";

/*
 * The engine suites' shared pieces: is there a CLI (else the suite says so and is skipped), and a
 * user's project folder holding a copy of a program, ready for `pulumi stack init`.
 */

const found = engine();

/** `describe` when the real CLI is here, else `describe.skip` with the reason in its title. */
export const describeEngine = (title: string, fn: () => void): void => {
  if ("missing" in found) {
    if (process.env.REQUIRE_PULUMI_ENGINE === "1") {
      // CI sets this: there, no engine is a failure, never a skip.
      test(`${title}: the Pulumi CLI is required (REQUIRE_PULUMI_ENGINE=1)`, () => {
        throw new Error(found.missing);
      });
      return;
    }
    // Loud on purpose: a missing engine must never pass for a green engine suite.
    console.warn(`ENGINE SUITE SKIPPED (${title}): ${found.missing}`);
    describe.skip(`${title} [skipped: ${found.missing}]`, fn);
    return;
  }
  describe(`${title} [pulumi ${found.version}]`, fn);
};

/** A fresh project folder under test/.work with a copy of `from` and pulumi-hosting linked. */
export function projectFrom(from: string): string {
  const parent = join(workDir(), "engine");
  mkdirSync(parent, { recursive: true });
  return programDir(from, parent);
}

/** The steps of a replace: Pulumi reports one resource's replace as several steps. */
const REPLACE_STEPS = new Set(["replace", "create-replacement", "delete-replaced"]);

/** Operation per resource name (a replace's several steps as one "replace"), the stack left out. */
export const opsByName = (r: EngineRun): Record<string, string> => {
  const ops: Record<string, string> = {};
  for (const s of r.steps) {
    if (s.type === "pulumi:pulumi:Stack" || s.type.startsWith("pulumi:providers:")) continue;
    ops[s.name] = REPLACE_STEPS.has(s.op) || ops[s.name] === "replace" ? "replace" : s.op;
  }
  return ops;
};

/** The properties whose change made the engine plan `name`'s step (every step of it). */
export const diffsOf = (r: EngineRun, name: string): string[] => [
  ...new Set(r.steps.filter((s) => s.name === name).flatMap((s) => s.diffs)),
];

/** Throws with the CLI's own words when a run failed. */
export function ok<R extends EngineRun>(r: R): R {
  if (!r.ok) {
    throw new Error(`pulumi failed (${r.code ?? r.signal}):\n${r.stdout}\n${r.stderr}`);
  }
  return r;
}

export { PulumiStack };
