import { newApp as makeApp, useEmulator } from "../helpers/emulator";

/*
 * The emulator's control routes that change the world behind a stack's back (drift for tests):
 * each change shows through the API as a user's program would read it, and a bad request says
 * what is wrong and changes nothing.
 */

const env = useEmulator({ setupDelayMs: 0 });

async function control(method: string, path: string, body?: unknown) {
  const res = await fetch(`${env.emu.url}${path}`, {
    method,
    headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

const newApp = async (name: string) => (await makeApp(env.client(), name)).id;

const listed = async (id: string) =>
  (await env.client().listApps()).find((a) => a.app.id === id)!.app;

describe("PATCH /__emulator/apps/:id", () => {
  test("changes the app's settings as the API then lists them", async () => {
    const id = await newApp("drifted");
    const r = await control("PATCH", `/__emulator/apps/${id}`, {
      name: "renamed",
      ram: 2048,
      vcpu: 2,
      description: "changed by hand",
      web_enabled: false,
      analytics_enabled: true,
    });
    expect(r).toEqual({ status: 200, body: { message: "app changed" } });
    expect(await listed(id)).toMatchObject({
      name: "renamed",
      ram: 2048,
      vcpu: 2,
      description: "changed by hand",
    });
    const record = env.emu.world.apps.find((a) => a.id === id)!;
    expect([record.web_enabled, record.analytics_enabled]).toEqual([false, true]);
  });

  test("remove_domain detaches the custom domain", async () => {
    const id = await newApp("undomained");
    await env.client().attachCustomDomain(id, "www.undomained.pointed.test");
    expect((await listed(id)).custom_domain).toBe("www.undomained.pointed.test");
    const r = await control("PATCH", `/__emulator/apps/${id}`, { remove_domain: true });
    expect(r.status).toBe(200);
    expect((await listed(id)).custom_domain).toBe("");
  });

  test("setup_ready false makes the app's setup unfinished, true finishes it", async () => {
    const id = await newApp("resetup");
    expect((await listed(id)).setup).toBe(true);
    expect((await control("PATCH", `/__emulator/apps/${id}`, { setup_ready: false })).status).toBe(
      200,
    );
    expect(await listed(id)).toMatchObject({ setup: false, last_setup_at: null });
    expect((await control("PATCH", `/__emulator/apps/${id}`, { setup_ready: true })).status).toBe(
      200,
    );
    const app = await listed(id);
    expect(app.setup).toBe(true);
    expect(app.last_setup_at).toEqual(expect.any(String));
  });

  test("an unknown app is a 404; a setting it does not have or of the wrong type a 400", async () => {
    const id = await newApp("guarded");
    const before = JSON.stringify(env.emu.world.apps.find((a) => a.id === id));
    expect(await control("PATCH", "/__emulator/apps/no-such-app", { ram: 1024 })).toEqual({
      status: 404,
      body: { error: "app not found" },
    });
    const unknown = await control("PATCH", `/__emulator/apps/${id}`, { rma: 1024 });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toMatch(/rma/);
    const wrongType = await control("PATCH", `/__emulator/apps/${id}`, { ram: "big" });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.error).toMatch(/number/);
    expect(JSON.stringify(env.emu.world.apps.find((a) => a.id === id))).toBe(before);
  });
});

describe("POST /__emulator/apps", () => {
  test("makes `count` apps named <prefix>-<n> for the user, listed by the API", async () => {
    const r = await control("POST", "/__emulator/apps", { count: 3, prefix: "many" });
    expect(r.status).toBe(200);
    const ids = r.body.ids as string[];
    expect(ids).toHaveLength(3);
    const names = (await env.client().listApps())
      .filter((a) => ids.includes(a.app.id))
      .map((a) => a.app.name)
      .sort();
    expect(names).toEqual(["many-0", "many-1", "many-2"]);
  });

  test("an unknown user is a 404, a count out of range a 400; nothing is made", async () => {
    const count = env.emu.world.apps.length;
    expect(await control("POST", "/__emulator/apps", { count: 1, user: "nobody" })).toEqual({
      status: 404,
      body: { error: "no such user" },
    });
    expect((await control("POST", "/__emulator/apps", { count: 0 })).status).toBe(400);
    expect(env.emu.world.apps.length).toBe(count);
  });
});
