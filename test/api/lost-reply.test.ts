import { HostingError, NotFoundError } from "../../src/api";
import { useEmulator } from "../helpers/emulator";
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
    ["commitThenStatus 502", { commitThenStatus: 502 }, {}],
    ["commitThenStatus 500", { commitThenStatus: 500 }, {}],
    ["commitThenStatus 408", { commitThenStatus: 408 }, {}],
    ["commitThenDrop", { commitThenDrop: true }, {}],
    ["a reply slower than timeoutMs", { latencyMs: 1500 }, { timeoutMs: 300 }],
  ])("%s", async (_label, fault, opts) => {
    const { name, zip } = await appZip();
    env.emu.setFaults({ rules: [{ route: "POST /apps", times: 1, ...fault }] });
    const c = env.client(opts);
    const err = (await c.createApp({ archivePath: zip }).catch((e: unknown) => e)) as HostingError;
    expect(err).toBeInstanceOf(HostingError);
    expect(err.mayHaveTakenEffect).toBe(true);
    expect(err.message).toMatch(/may have taken effect: call listApps\(\) and look for an app/);
    expect(env.emu.stats().requests["POST /apps"]).toBe(1);
    if (!("latencyMs" in fault)) {
      // It did: the hint leads to it.
      expect((await c.listApps()).some((a) => a.app.name === name)).toBe(true);
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
    expect(err.message).not.toMatch(/may have taken effect/);
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
  });

  test("a DELETE of something that never existed is still NotFoundError", async () => {
    const c = env.client();
    await expect(c.deleteApp("00000000-0000-0000-0000-000000000000")).rejects.toBeInstanceOf(
      NotFoundError,
    );
  });
});
