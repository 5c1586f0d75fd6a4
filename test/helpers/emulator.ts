import { request } from "undici";
import { HostingClient, type HostingClientOptions } from "../../src/api";
import { startEmulator, type EmulatorOptions, type RunningEmulator } from "../../src/emulator";

/** Starts an emulator on 127.0.0.1:0 for one test file and closes it (and its clients) after. */
export function useEmulator(options: EmulatorOptions = {}) {
  const ctx = {} as { emu: RunningEmulator; clients: HostingClient[] };
  beforeAll(async () => {
    ctx.emu = await startEmulator({ seed: "test", ...options });
    ctx.clients = [];
  });
  afterAll(async () => {
    await Promise.all(ctx.clients.map((c) => c.close()));
    await ctx.emu.stop();
  });
  return {
    get emu() {
      return ctx.emu;
    },
    client(extra: Partial<HostingClientOptions> & { user?: string } = {}): HostingClient {
      const { user, ...rest } = extra;
      const c = new HostingClient({
        apiUrl: ctx.emu.url,
        token: ctx.emu.issueToken(user),
        ...rest,
      });
      ctx.clients.push(c);
      return c;
    },
  };
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
