import { join } from "node:path";
import type { RunningEmulator } from "../../src/emulator";
import { Deployment } from "./deployment";
import { programDir } from "./stack-dir";

/** A program of test/e2e/fixtures, in a fresh folder, ready to deploy against an emulator. */
export function fixtureStack(emu: RunningEmulator, name: string): Deployment {
  const dir = programDir(join(__dirname, "..", "e2e", "fixtures", name));
  return new Deployment({
    programDir: dir,
    providerCwd: dir,
    stateFile: join(dir, "state.json"),
    config: { "hosting:apiUrl": emu.url, "hosting:token": emu.issueToken() },
    secretConfigKeys: ["hosting:token"],
  });
}
