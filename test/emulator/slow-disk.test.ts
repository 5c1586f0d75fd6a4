import { randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import FormData from "form-data";
import { postApps, useEmulator } from "../helpers/emulator";
import { makeZip, manifest } from "../helpers/zip";

/*
 * The emulator tells a cut multipart body from a slow disk by what is left to read, not by a
 * timer: a complete upload is accepted however long storing it takes (here ~50 chunks at 25 ms
 * each, well past the 500 ms a timer used to allow), and a cut one is still refused.
 */

const env = useEmulator({ uploadDiskDelayMs: 25 });

const post = (body: Buffer, contentType: string) => postApps(env.emu, body, contentType);

test("a complete upload is accepted however slowly the disk stores it", async () => {
  // Random bytes, stored: the archive stays ~3 MiB, about fifty 64 KiB chunks to write.
  const zip = await makeZip(
    {
      "index.js": "i",
      "blob.bin": randomBytes(3 << 20),
      "hosting.json": manifest({ name: "slow-disk" }),
    },
    { compress: false },
  );
  const form = new FormData();
  form.append("project", await readFile(zip), {
    filename: "app.zip",
    contentType: "application/zip",
  });
  const r = await post(form.getBuffer(), form.getHeaders()["content-type"]);
  expect(r).toMatchObject({ status: 200, body: { id: expect.any(String) } });
  const app = env.emu.world.apps.find((a) => a.id === r.body.id);
  expect(app?.archive_bytes).toBe((await readFile(zip)).length);
});

test("a body cut inside the file part is refused, slow disk or not", async () => {
  const head = '--XYZ\r\nContent-Disposition: form-data; name="project"; filename="a.zip"\r\n\r\n';
  const r = await post(
    Buffer.concat([Buffer.from(head), randomBytes(1 << 20)]),
    "multipart/form-data; boundary=XYZ",
  );
  expect(r).toMatchObject({
    status: 400,
    body: { error: expect.stringMatching(/^malformed multipart body: /) },
  });
});
