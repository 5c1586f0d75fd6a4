import type { RunningEmulator } from "../../src/emulator";
import type { Step } from "./deployment";

/** A step's resource kind, e.g. "App" from its URN. */
export const kind = (s: Step) => s.urn.split("::")[2].split(":").pop();

/** The operation planned or done per resource kind. */
export const ops = (r: { steps: Step[] }) =>
  Object.fromEntries(r.steps.map((s) => [kind(s), s.op]));

/** Requests the emulator has seen that could change something (everything but GETs). */
export const mutations = (emu: RunningEmulator) =>
  Object.entries(emu.stats().requests)
    .filter(([route]) => !route.startsWith("GET "))
    .reduce((n, [, c]) => n + c, 0);
