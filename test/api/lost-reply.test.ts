import { HostingClient, HostingError, NotFoundError } from "../../src/api";
import { createApp } from "../../src/provider/app/create-app";
import { LostCreateReplyError } from "../../src/provider/errors";
import { useEmulator } from "../helpers/emulator";
import { FAKE_TOKEN, fixtureServer, json, text } from "../helpers/fixture-server";
import { makeZip, manifest } from "../helpers/zip";

/* Replies lost after the request took effect: say so on POST, count "gone" as done on DELETE. */

const env = useEmulator({ setupDelayMs: 0 });
afterEach(() => {
  env.emu.setFaults({});
  env.emu.resetStats();
});

let seq = 0;
async function appZip() {
  const name = `lost-${++seq}`;
  const zip = await makeZip({
    "hosting.json": manifest({ name, ram: 512, entrypoint: "server.js", subdomain: name }),
    "server.js": "",
  });
  return { name, zip };
}

describe("a createApp whose reply was lost says it may have taken effect", () => {
  test.each([
    ["commitThenStatus 502", { commitThenStatus: 502 }],
    ["commitThenStatus 500", { commitThenStatus: 500 }],
    ["commitThenStatus 408", { commitThenStatus: 408 }],
    ["commitThenDrop", { commitThenDrop: true }],
  ])("%s", async (_label, fault) => {
    const { name, zip } = await appZip();
    env.emu.setFaults({ rules: [{ route: "POST /apps", times: 1, ...fault }] });
    const c = env.client();
    const err = (await c.createApp({ archivePath: zip }).catch((e: unknown) => e)) as HostingError;
    expect(err).toBeInstanceOf(HostingError);
    expect(err.mayHaveTakenEffect).toBe(true);
    expect(err.message).toMatch(/may have taken effect: call listApps\(\) and look for an app/);
    // The facts are fields: what failed (without the advice) and what to check.
    expect(err.lostReply).toEqual({
      failure: expect.stringMatching(/^POST \/apps/),
      check: "call listApps() and look for an app with the name in the archive's hosting.json",
    });
    expect(err.lostReply!.failure).not.toMatch(/may have taken effect/);
    expect(err.message.startsWith(err.lostReply!.failure)).toBe(true);
    expect(env.emu.stats().requests["POST /apps"]).toBe(1);
    // It did: the hint leads to it.
    expect((await c.listApps()).filter((a) => a.app.name === name)).toHaveLength(1);
  });

  test("a reply slower than timeoutMs, after the server took the whole upload", async () => {
    // The emulator cannot take an upload whose connection the client closed, so a plain server
    // here reads the whole request and then never answers.
    const { zip } = await appZip();
    let readToEnd = 0; // a reply is chosen once the request's body has ended
    const fx = await fixtureServer([() => readToEnd++]);
    const c = new HostingClient({ apiUrl: fx.url, token: FAKE_TOKEN, timeoutMs: 300 });
    try {
      const err = (await c
        .createApp({ archivePath: zip })
        .catch((e: unknown) => e)) as HostingError;
      expect(err).toBeInstanceOf(HostingError);
      expect(err.mayHaveTakenEffect).toBe(true);
      expect(err.lostReply).toEqual({
        failure: expect.stringMatching(/^POST \/apps/),
        check: "call listApps() and look for an app with the name in the archive's hosting.json",
      });
      // One POST, read to its end by the server: it could have taken effect.
      expect(fx.seen.map((r) => r.method)).toEqual(["POST"]);
      expect(readToEnd).toBe(1);
    } finally {
      await c.close();
      await fx.close();
    }
  });

  test("a plain refusal (409) does not claim it may have taken effect", async () => {
    const { zip } = await appZip();
    env.emu.setFaults({ rules: [{ route: "POST /apps", times: 1, status: 409 }] });
    const err = (await env
      .client()
      .createApp({ archivePath: zip })
      .catch((e: unknown) => e)) as HostingError;
    expect(err).toBeInstanceOf(HostingError);
    expect(err.mayHaveTakenEffect).toBe(false);
    expect(err.lostReply).toBe(undefined);
    expect(err.message).not.toMatch(/may have taken effect/);
  });

  test("the App's recovery quotes the failure from the field, without the client's advice", async () => {
    const { name, zip } = await appZip();
    // Applied nowhere: plain 502s that the client cannot tell from a lost reply, until the
    // create's budget (1 s) is spent.
    env.emu.setFaults({ rules: [{ route: "POST /apps", status: 502 }] });
    const app = { name, subdomain: name, setupTimeoutSeconds: 1 };
    const err = (await createApp(env.client(), app, zip).catch(
      (e: unknown) => e,
    )) as LostCreateReplyError;
    expect(err).toBeInstanceOf(LostCreateReplyError);
    expect(err.message).toMatch(
      new RegExp(`^creating app "${name}": POST /apps failed with 502: `),
    );
    expect(err.message).not.toMatch(/call listApps\(\)/);
    expect(err.message).toMatch(/did not take effect/);
  });
});

describe("a 2xx reply that cannot be used still says the request took effect", () => {
  // The emulator always answers well-formed, so a plain server on 127.0.0.1 answers here.
  async function against(reply: Parameters<typeof fixtureServer>[0][number]) {
    const { zip } = await appZip();
    const fx = await fixtureServer([reply]);
    const c = new HostingClient({ apiUrl: fx.url, token: FAKE_TOKEN, maxResponseBytes: 1024 });
    try {
      const post = (await c
        .createApp({ archivePath: zip })
        .catch((e: unknown) => e)) as HostingError;
      const get = (await c.listApps().catch((e: unknown) => e)) as HostingError;
      return { post, get, posts: fx.seen.filter((r) => r.method === "POST").length };
    } finally {
      await c.close();
      await fx.close();
    }
  }

  test.each([
    ["not the documented shape", json(200, { name: "no id" }), "HOSTING_BAD_RESPONSE"],
    ["not JSON", text(200, "<html>created</html>"), "HOSTING_BAD_RESPONSE"],
    ["too large", json(201, { id: "x".repeat(4096) }), "HOSTING_REPLY_TOO_LARGE"],
  ])("%s", async (_label, reply, code) => {
    const { post, get, posts } = await against(reply);
    expect(post).toMatchObject({ code, mayHaveTakenEffect: true });
    expect(post.message).toMatch(/may have taken effect: call listApps\(\) and look for an app/);
    expect(posts).toBe(1);
    // A GET changes nothing: the same reply is only an error.
    expect(get).toMatchObject({ code, mayHaveTakenEffect: false });
  });

  test("a too-large 4xx refusal does not claim it", async () => {
    const { post } = await against(json(409, { error: "x".repeat(4096) }));
    expect(post).toMatchObject({ code: "HOSTING_REPLY_TOO_LARGE", mayHaveTakenEffect: false });
  });
});

describe("a DELETE retried after a lost reply counts 404 as done", () => {
  test.each([
    ["commitThenStatus 502", { commitThenStatus: 502 }],
    ["commitThenDrop", { commitThenDrop: true }],
  ])("deleteApp after %s", async (_label, fault) => {
    const c = env.client();
    const { name, zip } = await appZip();
    const { id } = await c.createApp({ archivePath: zip });
    env.emu.setFaults({ rules: [{ route: "DELETE /apps/{app_id}", times: 1, ...fault }] });
    await expect(c.deleteApp(id)).resolves.toMatchObject({
      message: expect.stringMatching(/deleted/),
    });
    expect(env.emu.stats().requests["DELETE /apps/{app_id}"]).toBe(2);
    expect((await c.listApps()).some((a) => a.app.name === name)).toBe(false);
  });

  test("deleteBackup after commitThenStatus 502", async () => {
    const c = env.client();
    const [db] = await c.listDatabases();
    const backups = env.emu.world.backups.filter((b) => b.project_id === db.database.id);
    const oldest = backups.reduce((a, b) => (a.created_at < b.created_at ? a : b));
    const route = "DELETE /project/{project_id}/backups/{backup_id}";
    env.emu.setFaults({ rules: [{ route, times: 1, commitThenStatus: 502 }] });
    await expect(c.deleteBackup(db.database.id, oldest.id)).resolves.toMatchObject({
      message: expect.stringMatching(/deleted/),
    });
    expect(env.emu.stats().requests[route]).toBe(2);
    expect(env.emu.world.backups.some((b) => b.id === oldest.id)).toBe(false);
  });

  test("a DELETE of something that never existed is still NotFoundError", async () => {
    const c = env.client();
    await expect(c.deleteApp("00000000-0000-0000-0000-000000000000")).rejects.toBeInstanceOf(
      NotFoundError,
    );
  });
});
