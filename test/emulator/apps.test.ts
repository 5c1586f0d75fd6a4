import { readFile, writeFile } from "node:fs/promises";
import { request } from "undici";
import FormData from "form-data";
import { wireAssumptions } from "../../src/api/endpoints";
import { formatDotenv } from "../../src/api";
import { postApps, useEmulator } from "../helpers/emulator";
import { TestClock } from "../helpers/test-clock";
import { makeZip, manifest } from "../helpers/zip";

// Setup and domain activation are timed by a clock only the tests move: no real waiting, and
// no flake when the machine is slow between two requests.
const clock = TestClock.manual();
const env = useEmulator({
  setupDelayMs: 300,
  domainActivationMs: 300,
  maxUploadBytes: 64 * 1024,
  now: () => clock.now(),
});

const rawPost = (body: Buffer | string, contentType: string) =>
  postApps(env.emu, body, contentType);

async function postForm(fields: Array<[string, Buffer | string, string?]>) {
  const form = new FormData();
  for (const [name, value, filename] of fields) {
    form.append(name, value, filename ? { filename, contentType: "application/zip" } : undefined);
  }
  return rawPost(form.getBuffer(), form.getHeaders()["content-type"]);
}

describe("POST /apps input checks", () => {
  test("not multipart → 400", async () => {
    const r = await rawPost(JSON.stringify({ a: 1 }), "application/json");
    expect(r.status).toBe(400);
    expect(r.body.error).toMatch(/multipart/);
  });

  test("a truncated multipart body → 400 with an error body", async () => {
    const r = await rawPost(
      '--XYZ\r\nContent-Disposition: form-data; name="project"; filename="a.zip"\r\n\r\nPK',
      "multipart/form-data; boundary=XYZ",
    );
    expect(r.status).toBe(400);
    expect(r.body.error).toBeTruthy();
  });

  test("no project file → 400", async () => {
    const r = await postForm([["env", "A=1"]]);
    expect(r).toMatchObject({ status: 400, body: { error: "the project file field is required" } });
  });

  test("a file that is not a zip → 400", async () => {
    const r = await postForm([["project", Buffer.from("just text"), "app.zip"]]);
    expect(r).toMatchObject({ status: 400, body: { error: "project is not a zip archive" } });
  });

  test("a zip-slip archive (an entry climbing with ..) → 400, nothing created", async () => {
    const file = await makeZip({ "aa/evil.txt": "x", "hosting.json": manifest({ name: "slip" }) });
    const bytes = await readFile(file);
    // Same-length rename in both the local header and the central directory.
    const evil = Buffer.from(
      bytes.toString("latin1").split("aa/evil.txt").join("../evil.txt"),
      "latin1",
    );
    await writeFile(file, evil);
    const before = env.emu.world.apps.length;
    const r = await postForm([["project", evil, "app.zip"]]);
    expect(r.status).toBe(400);
    expect(r.body.error).toMatch(/escapes the archive root/);
    expect(env.emu.world.apps.length).toBe(before);
  });

  test("an upload over the size cap → 413", async () => {
    const big = await makeZip({ "blob.bin": Buffer.alloc(200 * 1024, 7) });
    const zipped = await readFile(big);
    // Stored-not-compressed data of random bytes would also do; this zip is small, so pad the part.
    const r = await postForm([
      ["project", Buffer.concat([zipped, Buffer.alloc(100 * 1024)]), "app.zip"],
    ]);
    expect(r.status).toBe(413);
    expect(r.body.error).toMatch(/larger than the limit/);
  });

  test("an env field over the limit → 413, never a cut-short env; a tricky env arrives intact", async () => {
    const zip = await readFile(await makeZip({ "hosting.json": manifest({ name: "envs" }) }));
    const before = env.emu.world.apps.length;
    const big = await postForm([
      ["env", `BIG='${"x".repeat(wireAssumptions.maxEnvBytes)}'`],
      ["project", zip, "app.zip"],
    ]);
    expect(big.status).toBe(413);
    expect(big.body.error).toMatch(/env is larger than the limit of 65536 bytes/);
    expect(env.emu.world.apps.length).toBe(before);

    // The emulator reads env with npm dotenv: what the client writes arrives as it was.
    const secret = `p@$$w0rd "quoted" it's 1`;
    const ok = await postForm([
      ["env", formatDotenv({ SECRET: secret, PEM: "a\\nb\nc" })],
      ["project", zip, "app.zip"],
    ]);
    expect(ok.status).toBe(200);
    expect(env.emu.world.apps.find((a) => a.id === ok.body.id)?.env_keys).toEqual([
      "PEM",
      "SECRET",
    ]);
  });

  test("a manifest that is not valid → 422 naming the field", async () => {
    const zip = await makeZip({ "hosting.json": manifest({ name: "x", ram: "big" }) });
    const r = await postForm([["project", await readFile(zip), "app.zip"]]);
    expect(r.status).toBe(422);
    expect(r.body.error).toMatch(/^hosting.json: ram:/);
  });
});

describe("app lifecycle", () => {
  test("setup turns true after the setup delay, and a deployment is recorded", async () => {
    const c = env.client();
    const zip = await makeZip({ "hosting.json": manifest({ name: "slow" }) });
    const { id } = await c.createApp({ archivePath: zip });
    const summary = async () => (await c.listApps()).find((a) => a.app.id === id)!.app;
    expect((await summary()).setup).toBe(false);
    await clock.advance(350);
    expect((await summary()).setup).toBe(true);
    expect(await c.listDeployments(id)).toHaveLength(1);
  });

  test("the list reports the settings a manifest set, the platform's defaults for the rest, and nothing the record keeps to itself", async () => {
    const c = env.client();
    const zip = await makeZip({
      "hosting.json": manifest({ name: "listed", ram: 1024, custom_command: "npm start" }),
      "index.js": "",
    });
    const { id } = await c.createApp({ archivePath: zip });
    const app = (await c.listApps()).find((a) => a.app.id === id)!.app;
    // The client's reply schema passes unknown fields through: a record field would show here.
    expect(Object.keys(app).sort()).toEqual(
      [
        "id",
        "user_id",
        "ram",
        "vcpu",
        "name",
        "is_app",
        "blocked_until",
        "setup",
        "created_at",
        "last_setup_at",
        "subdomain",
        "entrypoint",
        "description",
        "custom_command",
        "custom_domain",
      ].sort(),
    );
    expect(app).toMatchObject({
      name: "listed",
      ram: 1024,
      vcpu: 1,
      entrypoint: "",
      description: "",
      custom_command: "npm start",
      is_app: true,
      custom_domain: "",
    });
  });

  test("custom domains: unpointed is refused naming the CNAME target; one per app; pending then active", async () => {
    const c = env.client();
    const zip = await makeZip({ "hosting.json": manifest({ name: "dom" }) });
    const { id } = await c.createApp({ archivePath: zip });
    const unpointed = await c.attachCustomDomain(id, "www.example.com").catch((e: unknown) => e);
    expect(unpointed).toMatchObject({ status: 400 });
    expect(String(unpointed)).toMatch(/CNAME record www.example.com → /);
    // The client refuses such a name itself; the emulator must refuse it too when sent raw.
    const bad = await request(`${env.emu.url}/apps/${id}/domains`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${env.emu.issueToken()}`,
        "content-type": "application/json",
      },
      body: JSON.stringify({ custom_domain: "not a host" }),
    });
    expect(bad.statusCode).toBe(400);
    expect(await bad.body.json()).toMatchObject({ error: expect.stringMatching(/not a host/) });
    const first = await c.attachCustomDomain(id, "WWW.Dom.Pointed.Test");
    expect(first.custom_hostname).toMatchObject({
      hostname: "www.dom.pointed.test",
      status: "pending",
    });
    const second = await c.attachCustomDomain(id, "api.dom.pointed.test").catch((e: unknown) => e);
    expect(second).toMatchObject({ status: 409 });
    await clock.advance(350);
    const again = await c.attachCustomDomain(id, "www.dom.pointed.test");
    expect(again.custom_hostname.status).toBe("active");
    expect(again.custom_hostname.id).toBe(first.custom_hostname.id);
  });

  test("analytics: off by default, dashboard refused with a clear error until enabled", async () => {
    const c = env.client();
    const zip = await makeZip({ "hosting.json": manifest({ name: "stats" }) });
    const { id } = await c.createApp({ archivePath: zip });
    await expect(c.getDashboardData(id, { minutes: 10 })).rejects.toMatchObject({
      status: 400,
      bodyMessage: expect.stringMatching(/analytics is not enabled/),
    });
    await c.setAnalytics(id, true);
    expect((await c.getDashboardData(id, { minutes: 10 })).rps_timeseries).toHaveLength(10);
  });
});

describe("the seeded world", () => {
  test("the same seed gives the same world", async () => {
    const a = await env.start({ seed: "same" });
    const b = await env.start({ seed: "same" });
    const c = await env.start({ seed: "other" });
    try {
      const ids = (w: typeof a.world) => [...w.databases, ...w.vms, ...w.backups].map((x) => x.id);
      expect(a.users).toEqual(b.users);
      expect(ids(a.world)).toEqual(ids(b.world));
      expect(ids(a.world)).not.toEqual(ids(c.world));
    } finally {
      await Promise.all([a.stop(), b.stop(), c.stop()]);
    }
  });
  test("runtime versions: each language has exactly one recommended and one latest", () => {
    const byLang = new Map<string, { rec: number; latest: number }>();
    for (const v of env.emu.world.runtime_versions) {
      const e = byLang.get(v.language) ?? { rec: 0, latest: 0 };
      e.rec += v.recommended ? 1 : 0;
      e.latest += v.latest ? 1 : 0;
      byLang.set(v.language, e);
    }
    expect(byLang.size).toBeGreaterThanOrEqual(4);
    for (const e of byLang.values()) expect(e).toEqual({ rec: 1, latest: 1 });
  });
});
