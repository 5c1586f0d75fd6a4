import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { request } from "undici";
import { HostingClient, ServerError } from "../../src/api";
import type { World } from "../../src/emulator";
import { newApp as makeApp, useEmulator, useEmulators } from "../helpers/emulator";

const emulators = useEmulators();

const env = useEmulator({ setupDelayMs: 0 });

const newApp = async (client: HostingClient, name: string) => (await makeApp(client, name)).id;

describe("Idempotency-Key is scoped to (user, method, path)", () => {
  const post = (path: string, key: string, user?: string) =>
    request(`${env.emu.url}${path}`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${env.emu.issueToken(user)}`,
        "idempotency-key": key,
      },
    }).then(async (r) => ({
      status: r.statusCode,
      body: (await r.body.json()) as { error?: string },
    }));

  test("same key, same path: the first reply again; another path: 422, nothing done", async () => {
    const c = env.client();
    const a = await newApp(c, "idem-a");
    const b = await newApp(c, "idem-b");
    env.emu.world.apps.find((x) => x.id === b)!.web_enabled = false;
    expect((await post(`/apps/${a}/web`, "k-1")).status).toBe(200);
    expect((await post(`/apps/${a}/web`, "k-1")).status).toBe(200);
    const reused = await post(`/apps/${b}/web`, "k-1");
    expect(reused.status).toBe(422);
    expect(reused.body.error).toBe(
      `Idempotency-Key was already used for POST /apps/${a}/web; send a new key for POST /apps/${b}/web`,
    );
    expect(env.emu.world.apps.find((x) => x.id === b)!.web_enabled).toBe(false);
  });

  test("another user's identical key is their own", async () => {
    const vmOfBob = env.emu.world.vms.find((v) => v.user_id === env.emu.users[1].id)!;
    const vmOfAlice = env.emu.world.vms.find((v) => v.user_id === env.emu.users[0].id)!;
    expect((await post(`/vms/${vmOfAlice.id}/start`, "shared")).status).toBe(200);
    expect((await post(`/vms/${vmOfBob.id}/start`, "shared", "bob")).status).toBe(200);
  });
});

describe("the control API", () => {
  test("/__emulator/state leaves out passwords and the signing key unless asked", async () => {
    const plain = JSON.stringify(
      await (await request(`${env.emu.url}/__emulator/state`)).body.json(),
    );
    const password = env.emu.world.databases[0].password;
    expect(plain).not.toContain(password);
    expect(plain).not.toContain(env.emu.world.secret);
    expect(plain).toContain(env.emu.world.databases[0].id);
    const full = JSON.stringify(
      await (await request(`${env.emu.url}/__emulator/state?secrets=include`)).body.json(),
    );
    expect(full).toContain(password);
    expect(full).toContain(env.emu.world.secret);
  });

  test("/__emulator/tokens mints a working token for a user by name; a bad body is a 400", async () => {
    const mint = (body: unknown) =>
      request(`${env.emu.url}/__emulator/tokens`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      }).then(async (r) => ({ status: r.statusCode, body: (await r.body.json()) as never }));
    const bob = await mint({ user: "bob", expiresInSeconds: 60 });
    expect(bob.status).toBe(200);
    const { token } = bob.body as { token: string };
    const apps = await request(`${env.emu.url}/apps`, {
      headers: { authorization: `Bearer ${token}` },
    });
    await apps.body.dump();
    expect(apps.statusCode).toBe(200);
    expect((await mint({ user: "nobody" })).status).toBe(404);
    expect((await mint({ expiresInSeconds: "60" })).status).toBe(400);
  });

  test("binding beyond loopback without a control token warns; with one it does not", async () => {
    const warnings: string[] = [];
    const open = await emulators.start({ host: "0.0.0.0", warn: (m) => warnings.push(m) });
    await open.stop();
    const guarded = await emulators.start({
      host: "0.0.0.0",
      controlToken: "ctl-secret",
      warn: (m) => warnings.push(m),
    });
    await guarded.stop();
    const local = await emulators.start({ warn: (m) => warnings.push(m) });
    await local.stop();
    // One warning, the open one's.
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      /listening on 0\.0\.0\.0.*without a control token.*--control-token/,
    );
  });

  test("with --control-token, every peer must send it", async () => {
    const emu = await emulators.start({ controlToken: "ctl-secret" });
    try {
      const none = await request(`${emu.url}/__emulator/state`);
      await none.body.dump();
      expect(none.statusCode).toBe(401);
      const wrong = await request(`${emu.url}/__emulator/state`, {
        headers: { authorization: "Bearer ctl-wrong" },
      });
      await wrong.body.dump();
      expect(wrong.statusCode).toBe(401);
      const right = await request(`${emu.url}/__emulator/state`, {
        headers: { authorization: "Bearer ctl-secret" },
      });
      await right.body.dump();
      expect(right.statusCode).toBe(200);
    } finally {
      await emu.stop();
    }
  });
});

describe("the state file", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "hosting-state-"));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  async function goodState(): Promise<string> {
    const file = join(dir, "seed.json");
    const emu = await emulators.start({ stateFile: file, seed: "state" });
    await emu.stop();
    return readFile(file, "utf8");
  }

  test.each<[string, (good: string) => string, RegExp]>([
    ["empty", () => "", /it is empty/],
    ["only whitespace", () => " \n", /it is empty/],
    ["truncated", (g) => g.slice(0, Math.floor(g.length / 2)), /not valid JSON/],
    ["not JSON", () => "<html>", /not valid JSON/],
    ["null", () => "null", /\(top level\): /],
    ["an array", () => "[]", /\(top level\): /],
    ["another version", (g) => g.replace('"version":1', '"version":2'), /unknown state version 2/],
    ["missing collections", () => '{"version":1}', /secret: /],
    ["an app that is null", (g) => g.replace('"apps":[]', '"apps":[null]'), /apps\[0\]: /],
    ["no users", (g) => g.replace(/"users":\[[^\]]*\]/, '"users":[]'), /users: /],
    [
      "a password that is a number",
      (g) => g.replace(/"password":"[0-9a-f]+"/, '"password":5'),
      /databases\[0\]\.password: /,
    ],
  ])("%s: refused at start, naming the file and the cause", async (_name, mutate, cause) => {
    const file = join(dir, "state.json");
    await writeFile(file, mutate(await goodState()));
    const err = (await emulators.start({ stateFile: file }).catch((e: unknown) => e)) as Error;
    expect(err).toBeInstanceOf(Error);
    expect(err.name).not.toBe("TypeError");
    expect(err.message).toContain(`emulator state file ${file} cannot be used: `);
    expect(err.message).toMatch(cause);
  });

  test("an Idempotency-Key kept from before keys were scoped is replayed, not refused", async () => {
    const file = join(dir, "state.json");
    const old = JSON.parse(await goodState()) as World;
    old.idempotency[`${old.users[0].id}:old-key`] = { status: 200, body: { message: "before" } };
    await writeFile(file, JSON.stringify(old));
    const emu = await emulators.start({ stateFile: file });
    try {
      const vm = emu.world.vms.find((v) => v.user_id === emu.users[0].id)!;
      const r = await request(`${emu.url}/vms/${vm.id}/start`, {
        method: "POST",
        headers: { authorization: `Bearer ${emu.issueToken()}`, "idempotency-key": "old-key" },
      });
      expect(r.statusCode).toBe(200);
      expect(await r.body.json()).toEqual({ message: "before" });
      expect(vm.running).toBe(false);
    } finally {
      await emu.stop();
    }
  });

  test("temp files a crash left behind are removed at start; other files stay", async () => {
    const file = join(dir, "state.json");
    await writeFile(file, await goodState());
    await writeFile(`${file}.4242.tmp`, "{half");
    await writeFile(`${file}.77.tmp`, "");
    await writeFile(join(dir, "notes.tmp"), "mine");
    const emu = await emulators.start({ stateFile: file });
    await emu.stop();
    expect((await readdir(dir)).sort()).toEqual(["notes.tmp", "seed.json", "state.json"]);
  });

  test("a save that fails answers 500 and undoes the change in memory", async () => {
    const file = join(dir, "state.json");
    const emu = await emulators.start({ stateFile: file, setupDelayMs: 0 });
    const client = new HostingClient({ apiUrl: emu.url, token: emu.issueToken() });
    try {
      const id = await newApp(client, "rollback");
      // Make the next save fail: a folder (not empty) where the state file is renamed to.
      await rm(file);
      await mkdir(join(file, "in-the-way"), { recursive: true });
      const err = await client.setAnalytics(id, true).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ServerError);
      expect((err as Error).message).toMatch(
        /failed with 500: the change was not saved to the state file and has been undone: /,
      );
      expect(emu.world.apps.find((a) => a.id === id)?.analytics_enabled).toBe(false);
      expect((await client.listApps()).some((a) => a.app.id === id)).toBe(true);
      expect((await readdir(dir)).filter((n) => n.endsWith(".tmp"))).toEqual([]);
      // Once the file can be written again, the same change goes through and is kept.
      await rm(file, { recursive: true });
      await client.setAnalytics(id, true);
      expect(existsSync(file)).toBe(true);
      expect(emu.world.apps.find((a) => a.id === id)?.analytics_enabled).toBe(true);
    } finally {
      await client.close();
      await emu.stop();
    }
  });
});
