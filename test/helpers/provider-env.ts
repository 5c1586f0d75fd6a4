import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { EmulatorOptions, RunningEmulator } from "../../src/emulator";
import { useEmulators } from "./emulator";
import { ProviderHost } from "./provider-host";
import { InProcessProvider, type ProviderCalls } from "./in-process-provider";
import { serializedProvider, urnOf } from "./serialize";
import { TestClock } from "./test-clock";
import type { ResourceKind } from "../../src/provider/handlers";

export interface HostOptions {
  /** The provider's shared app-list lifetime (HOSTING_LIST_CACHE_MS); 0 sees changes at once. */
  listCacheMs?: number;
}

/** An emulator plus a configured provider host for one test file, torn down after it. */
export function useProviderHost(options: EmulatorOptions = {}, hostOptions: HostOptions = {}) {
  return useProviderEnv<ProviderHost>(options, hostOptions, (env) => ProviderHost.start(env));
}

/**
 * An emulator plus the provider's handlers called in this process as the host calls them
 * (see in-process-provider.ts), for one test file. Waits and polls, the provider's and the
 * emulator's setup and domain activation, run on one {@link TestClock.virtual}: no real waiting.
 */
export function useInProcessProvider(
  options: EmulatorOptions = {},
  hostOptions: HostOptions & {
    /** Real time instead: for a test of how waits that overlap in time share their calls. */
    realTime?: boolean;
  } = {},
) {
  const clock = TestClock.virtual();
  const timed = hostOptions.realTime ? options : { now: clock.now, ...options };
  const env = useProviderEnv<ProviderCalls>(timed, hostOptions, (e) =>
    InProcessProvider.start(e, hostOptions.realTime ? undefined : clock),
  );
  return Object.assign(env, { clock });
}

function useProviderEnv<H extends ProviderCalls>(
  options: EmulatorOptions,
  hostOptions: HostOptions,
  start: (env: Record<string, string>) => Promise<H>,
) {
  const ctx = {} as { emu: RunningEmulator; host: H; token: string };
  // Declared before the emulators' hook, so it runs first: the host stops, then the server.
  afterAll(async () => {
    await ctx.host?.stop();
  });
  const emulators = useEmulators();
  beforeAll(async () => {
    ctx.emu = await emulators.start({ seed: "provider", setupDelayMs: 50, ...options });
    ctx.token = ctx.emu.issueToken();
    ctx.host = await startHost();
  });
  /** A provider host as the engine starts one for each deployment. */
  async function startHost(): Promise<H> {
    const hostEnv: Record<string, string> = {};
    if (hostOptions.listCacheMs !== undefined) {
      hostEnv.HOSTING_LIST_CACHE_MS = String(hostOptions.listCacheMs);
    }
    const host = await start(hostEnv);
    await host.configure({ "hosting:apiUrl": ctx.emu.url, "hosting:token": ctx.token });
    return host;
  }
  const providers = new Map<ResourceKind, string>();
  return {
    get emu() {
      return ctx.emu;
    },
    get host() {
      return ctx.host;
    },
    get token() {
      return ctx.token;
    },
    /** Inputs as the engine sends them: the program's inputs plus `__provider`. */
    async inputs(kind: ResourceKind, props: Record<string, unknown>) {
      let p = providers.get(kind);
      if (!p) {
        p = await serializedProvider(kind);
        providers.set(kind, p);
      }
      return { __provider: p, ...props };
    },
    urn: urnOf,
    /** Stops the provider host and starts a fresh one: the next deployment. */
    async nextDeployment() {
      await ctx.host.stop();
      ctx.host = await startHost();
    },
    /** Creates an app through the host (check, then create), as a stack would. */
    async newApp(name: string) {
      return this.newAppFrom(name, await appSource());
    },
    /**
     * Checks an App of each name (one source folder), then hands back a call that creates them
     * all at once, as the engine runs a deployment's checks before its creates: a test measures
     * the creates alone by starting its count in between.
     */
    async checkApps(names: string[]) {
      const source = await appSource();
      const checked = await Promise.all(
        names.map(async (name) => {
          const urn = urnOf("App", name);
          const inputs = await this.inputs("App", { source, name });
          return { urn, inputs: (await ctx.host.check(urn, {}, inputs)).inputs };
        }),
      );
      return () => Promise.all(checked.map((c) => ctx.host.create(c.urn, c.inputs)));
    },
    async newAppFrom(name: string, source: string) {
      const urn = urnOf("App", name);
      const inputs = await this.inputs("App", { source, name });
      const checked = await ctx.host.check(urn, {}, inputs);
      return ctx.host.create(urn, checked.inputs);
    },
  };
}

/** A small app source folder. */
export async function appSource(files: Record<string, string> = {}): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "hosting-src-"));
  const all = {
    "index.js": "require('http').createServer((q, s) => s.end('hi')).listen(8080);\n",
    ...files,
  };
  for (const [name, text] of Object.entries(all)) await writeFile(join(dir, name), text);
  return dir;
}

/** Asserts that no string anywhere in the value holds the token. */
export function expectNoToken(value: unknown, token: string): void {
  expect(JSON.stringify(value)).not.toContain(token);
}
