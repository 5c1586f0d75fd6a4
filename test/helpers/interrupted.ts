import type { RunningEmulator } from "../../src/emulator";
import type { ProviderHost } from "./provider-host";
import { until } from "./until";

/*
 * Interrupting a deployment at a chosen moment: a provider call is started and the provider host
 * is killed (SIGKILL, as a crash or a cancelled CI job would) once the moment holds, before the
 * call could answer the engine. Moments are read from what a user or the service would see: the
 * emulator's apps, the host's output lines.
 */

/** Holds once the moment to kill has come. */
export type Moment = () => boolean;

/**
 * Runs `call` and kills `host` when `moment` holds. Fails if the call ended first (the moment
 * came too late to interrupt anything). Resolves once the host has exited.
 */
export async function killWhen(
  host: ProviderHost,
  call: () => Promise<unknown>,
  moment: Moment,
  what: string,
): Promise<void> {
  let ended: { value: unknown } | undefined;
  let killed = false;
  const running = call().then(
    (value) => void (ended = { value }),
    (err: unknown) => void (killed ? undefined : (ended = { value: err })),
  );
  await until(what, () => ended !== undefined || moment());
  if (ended) throw new Error(`the call ended before ${what}: ${String(ended.value)}`);
  killed = true;
  await host.kill();
  await running;
}

/** An app of this name that was not there when this was called has been made by the service. */
export function appCommitted(emu: RunningEmulator, name: string): Moment {
  const before = new Set(emu.world.apps.map((a) => a.id));
  return () => emu.world.apps.some((a) => a.name === name && !before.has(a.id));
}

/** The host printed a line matching `pattern` (the engine shows each line to the user). */
export function hostPrinted(host: ProviderHost, pattern: RegExp): Moment {
  return () => pattern.test(host.stdout());
}

/** The ids of the emulator's apps of this name. */
export function appIdsNamed(emu: RunningEmulator, name: string): string[] {
  return emu.world.apps.filter((a) => a.name === name).map((a) => a.id);
}
