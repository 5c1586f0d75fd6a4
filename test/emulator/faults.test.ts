import { request } from "undici";
import { HostingConnectionError, HostingClient } from "../../src/api";
import { spawn } from "node:child_process";
import { join } from "node:path";
import { ROOT } from "../helpers/pulumi-parts";
import { useEmulator } from "../helpers/emulator";
import { makeZip, manifest } from "../helpers/zip";

const env = useEmulator({ setupDelayMs: 0 });
const CLI = join(ROOT, "dist", "emulator", "cli.js");
afterEach(() => {
  env.emu.setFaults({});
  env.emu.resetStats();
});

describe("faults on demand", () => {
  test("a per-route status, fired a set number of times, counted in stats", async () => {
    env.emu.setFaults({ rules: [{ route: "GET /apps", status: 500, times: 1 }] });
    const c = env.client({ maxRetries: 0 });
    await expect(c.listApps()).rejects.toMatchObject({ status: 500 });
    await expect(c.listApps()).resolves.toBeDefined();
    expect(env.emu.stats()).toMatchObject({ requests: { "GET /apps": 2 }, faults: { status: 1 } });
  });

  test("added latency", async () => {
    env.emu.setFaults({ rules: [{ route: "*", latencyMs: 300 }] });
    const started = Date.now();
    await env.client().listDatabases();
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect(env.emu.stats().faults.latency).toBe(1);
  });

  test("a connection reset before the reply applies nothing", async () => {
    const vm = env.emu.world.vms[0];
    vm.running = false;
    env.emu.setFaults({ rules: [{ route: "POST /vms/{vm_id}/start", reset: true }] });
    await expect(env.client().startVm(vm.id)).rejects.toBeInstanceOf(HostingConnectionError);
    expect(vm.running).toBe(false);
    expect(env.emu.stats().faults.reset).toBe(1);
  });

  test("commit then drop: the POST is applied but no reply comes", async () => {
    env.emu.setFaults({ rules: [{ route: "POST /apps", commitThenDrop: true, times: 1 }] });
    const before = env.emu.world.apps.length;
    const zip = await makeZip({ "hosting.json": manifest({ name: "dropped" }) });
    await expect(env.client().createApp({ archivePath: zip })).rejects.toBeInstanceOf(
      HostingConnectionError,
    );
    expect(env.emu.world.apps.length).toBe(before + 1);
    expect(env.emu.world.apps.at(-1)!.name).toBe("dropped");
    expect(env.emu.stats().faults.commitThenDrop).toBe(1);
  });

  test("commit then a status: the POST is applied, the caller sees a gateway error", async () => {
    env.emu.setFaults({ rules: [{ route: "POST /apps", commitThenStatus: 502, times: 1 }] });
    const before = env.emu.world.apps.length;
    const zip = await makeZip({ "hosting.json": manifest({ name: "gateway" }) });
    await expect(env.client().createApp({ archivePath: zip })).rejects.toMatchObject({
      status: 502,
    });
    expect(env.emu.world.apps.length).toBe(before + 1);
    expect(env.emu.world.apps.at(-1)!.name).toBe("gateway");
    expect(env.emu.stats().faults.commitThenStatus).toBe(1);
  });

  test("after: the first N matching requests pass, then the rule fires", async () => {
    env.emu.setFaults({ rules: [{ route: "GET /apps", status: 500, after: 2 }] });
    const c = env.client({ maxRetries: 0 });
    await expect(c.listApps()).resolves.toBeDefined();
    await expect(c.listApps()).resolves.toBeDefined();
    await expect(c.listApps()).rejects.toMatchObject({ status: 500 });
    await expect(c.listRuntimeVersions()).resolves.toBeDefined(); // another route: not counted
  });

  test("a probability makes faults intermittent", async () => {
    env.emu.setFaults({ rules: [{ route: "GET /apps/versions", status: 503, probability: 0.5 }] });
    const c = env.client({ maxRetries: 0 });
    const outcomes: boolean[] = [];
    for (let i = 0; i < 40; i++)
      outcomes.push(
        await c.listRuntimeVersions().then(
          () => true,
          () => false,
        ),
      );
    const failures = outcomes.filter((o) => !o).length;
    expect(failures).toBeGreaterThan(5);
    expect(failures).toBeLessThan(35);
  });

  test("the same seed rolls the same dice", async () => {
    const { HostingClient } = await import("../../src/api");
    const pattern = async () => {
      const emu = await env.start({
        seed: "dice",
        faults: { rules: [{ route: "GET /apps/versions", status: 503, probability: 0.5 }] },
      });
      const c = new HostingClient({ apiUrl: emu.url, token: emu.issueToken(), maxRetries: 0 });
      let out = "";
      for (let i = 0; i < 20; i++)
        out += await c.listRuntimeVersions().then(
          () => "o",
          () => "x",
        );
      await c.close();
      await emu.stop();
      return out;
    };
    const first = await pattern();
    expect(first).toMatch(/o/);
    expect(first).toMatch(/x/);
    expect(await pattern()).toBe(first);
  });

  test("a per-token rate limit answers 429 with Retry-After; other tokens are unaffected", async () => {
    env.emu.setFaults({ rateLimit: { requests: 3, windowMs: 60_000 } });
    const token = env.emu.issueToken("alice");
    const statuses: number[] = [];
    let retryAfter: string | string[] | undefined;
    for (let i = 0; i < 5; i++) {
      const res = await request(`${env.emu.url}/apps`, {
        headers: { authorization: `Bearer ${token}` },
      });
      await res.body.dump();
      statuses.push(res.statusCode);
      if (res.statusCode === 429) retryAfter = res.headers["retry-after"];
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    expect(Number(retryAfter)).toBeGreaterThan(0);
    const bob = new HostingClient({
      apiUrl: env.emu.url,
      token: env.emu.issueToken("bob"),
      maxRetries: 0,
    });
    try {
      await expect(bob.listApps()).resolves.toBeDefined();
    } finally {
      await bob.close();
    }
    expect(env.emu.stats().faults.rateLimited).toBe(2);
  });

  test("faults can be set over HTTP at run time", async () => {
    const res = await request(`${env.emu.url}/__emulator/faults`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ rules: [{ route: "GET /databases", status: 502, times: 1 }] }),
    });
    expect(res.statusCode).toBe(200);
    await res.body.dump();
    await expect(env.client({ maxRetries: 0 }).listDatabases()).rejects.toMatchObject({
      status: 502,
    });
    const stats = await (await request(`${env.emu.url}/__emulator/stats`)).body.json();
    expect(stats).toMatchObject({ requests: { "GET /databases": 1 }, faults: { status: 1 } });
    const bad = await request(`${env.emu.url}/__emulator/faults`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ rules: [{ status: 99 }] }),
    });
    expect(bad.statusCode).toBe(400);
    await bad.body.dump();
  });

  test("a rule naming an unknown route is refused, listing the valid routes", async () => {
    const before = env.emu.stats().total;
    const res = await request(`${env.emu.url}/__emulator/faults`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ rules: [{ route: "POST /app", status: 503 }] }),
    });
    expect(res.statusCode).toBe(400);
    const { error } = (await res.body.json()) as { error: string };
    expect(error).toContain('rules[0].route: unknown route "POST /app"');
    expect(error).toContain('"POST /apps"');
    expect(error).toContain('"GET /apps/{app_id}/metrics"');
    // Nothing was configured: a create still succeeds.
    const zip = await makeZip({ "hosting.json": manifest({ name: "unfaulted" }) });
    await expect(
      env.client({ maxRetries: 0 }).createApp({ archivePath: zip }),
    ).resolves.toBeDefined();
    expect(env.emu.stats().faults.status).toBe(0);
    expect(env.emu.stats().total).toBe(before + 1);
  });

  test("setFaults and startEmulator options refuse an unknown route too", async () => {
    expect(() => env.emu.setFaults({ rules: [{ route: "GET /app" }] })).toThrow(
      /rules\[0\]\.route: unknown route "GET \/app"; valid routes: "\*", "GET \/apps"/,
    );
    await expect(
      env.start({ faults: { rules: [{ route: "DELETE /apps/:id", status: 500 }] } }),
    ).rejects.toThrow(/unknown route "DELETE \/apps\/:id".*"DELETE \/apps\/\{app_id\}"/);
  });
});

describe("hosting-emulator --faults", () => {
  const run = async (faults: string) => {
    const child = spawn(process.execPath, [CLI, "--port", "0", "--faults", faults], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    // "close", not "exit": stderr is complete only once the pipes are closed.
    const code = await new Promise<number | null>((resolve) => child.once("close", resolve));
    return { code, stderr };
  };

  test("malformed JSON names the flag and shows an example", async () => {
    const { code, stderr } = await run("{bad");
    expect(code).toBe(2);
    expect(stderr).toMatch(/^--faults: the value is not valid JSON/);
    expect(stderr).toContain(`e.g. --faults '{"rules":[{"route":"POST /apps"`);
  });

  test("an unknown route names the flag and the valid routes", async () => {
    const { code, stderr } = await run('{"rules":[{"route":"POST /app","status":503}]}');
    expect(code).toBe(2);
    expect(stderr).toContain(
      '--faults: invalid fault configuration: rules[0].route: unknown route "POST /app"',
    );
    expect(stderr).toContain('"POST /apps"');
  });
});
