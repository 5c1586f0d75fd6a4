import { request } from "undici";
import { HostingClient, type HostingClientOptions } from "../../src/api";
import { startEmulator, type EmulatorOptions, type RunningEmulator } from "../../src/emulator";
import { makeZip, manifest } from "./zip";

/**
 * Every emulator a test starts comes from here (test/structure/one-emulator-fixture.test.ts
 * holds it): a real server on 127.0.0.1, port 0 unless the options name one, stopped after
 * the test file however the test ended. `start` may be called in a hook or in a test; a test
 * may stop one earlier itself (stop is idempotent here).
 */
export function useEmulators() {
  const running = new Set<RunningEmulator>();
  afterAll(async () => {
    await Promise.all([...running].map((emu) => emu.stop()));
  });
  return {
    async start(options: EmulatorOptions = {}): Promise<RunningEmulator> {
      const emu = await startEmulator({ seed: "test", ...options });
      const close = emu.stop.bind(emu);
      let closing: Promise<void> | undefined;
      emu.stop = () => {
        running.delete(emu);
        return (closing ??= close());
      };
      running.add(emu);
      return emu;
    },
  };
}

/**
 * One emulator for one test file, started before its tests and closed (with its clients) after;
 * `start` makes more (a second server, another seed or state file).
 */
export function useEmulator(options: EmulatorOptions = {}) {
  const ctx: { emu?: RunningEmulator; clients: HostingClient[] } = { clients: [] };
  // Declared first, so run first (jest runs after-hooks in order): clients close, then servers.
  afterAll(async () => {
    await Promise.all(ctx.clients.map((c) => c.close()));
  });
  const emulators = useEmulators();
  beforeAll(async () => {
    ctx.emu = await emulators.start(options);
  });
  const running = (): RunningEmulator => {
    if (!ctx.emu)
      throw new Error("useEmulator: the emulator starts in beforeAll; use it from a test");
    return ctx.emu;
  };
  return {
    get emu() {
      return running();
    },
    start: emulators.start,
    client(extra: Partial<HostingClientOptions> & { user?: string } = {}): HostingClient {
      const { user, ...rest } = extra;
      const c = new HostingClient({
        apiUrl: running().url,
        token: running().issueToken(user),
        ...rest,
      });
      ctx.clients.push(c);
      return c;
    },
  };
}

/**
 * Makes an app through `client`, as a program's create would: a zip of `files` (an empty
 * index.js unless given) with the `hosting.json` of `name` and `settings`. Hands back the reply.
 */
export async function newApp(
  client: HostingClient,
  name: string,
  settings: Record<string, unknown> = {},
  files: Record<string, string> = { "index.js": "" },
) {
  const zip = await makeZip({ "hosting.json": manifest({ name, ...settings }), ...files });
  return client.createApp({ archivePath: zip });
}

/** POST /apps with a raw body, as a client other than ours would send it. */
export async function postApps(emu: RunningEmulator, body: Buffer | string, contentType: string) {
  const res = await request(`${emu.url}/apps`, {
    method: "POST",
    headers: { authorization: `Bearer ${emu.issueToken()}`, "content-type": contentType },
    body,
  });
  return {
    status: res.statusCode,
    body: (await res.body.json()) as { error?: string; id?: string },
  };
}

/** The ids of the emulator's apps that belong to the user of this name (`alice`, `bob`). */
export function appIdsOf(emu: RunningEmulator, user: string): string[] {
  const id = emu.users.find((u) => u.name === user)?.id;
  return emu.world.apps.filter((a) => a.user_id === id).map((a) => a.id);
}
