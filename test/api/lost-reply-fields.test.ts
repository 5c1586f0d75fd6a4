import { HostingError, ServerError } from "../../src/api";
import { createApp } from "../../src/provider/app/create-app";
import { LostCreateReplyError } from "../../src/provider/errors/lost-create-reply-error";
import { useEmulator } from "../helpers/emulator";
import { makeZip, manifest } from "../helpers/zip";

/*
 * A lost reply's facts are fields, not words to parse: `mayHaveTakenEffect`, and `lostReply`
 * with what failed and what to check. The message still says both.
 */

const env = useEmulator({ setupDelayMs: 0 });
afterEach(() => env.emu.setFaults({}));

let seq = 0;
async function appZip() {
  const name = `fields-${++seq}`;
  const zip = await makeZip({
    "hosting.json": manifest({ name, entrypoint: "server.js" }),
    "server.js": "",
  });
  return { name, zip };
}

test("a createApp whose reply was lost carries the facts as fields", async () => {
  const { zip } = await appZip();
  env.emu.setFaults({ rules: [{ route: "POST /apps", times: 1, commitThenStatus: 502 }] });
  const err = (await env
    .client()
    .createApp({ archivePath: zip })
    .catch((e: unknown) => e)) as ServerError;
  expect(err).toBeInstanceOf(ServerError);
  expect(err.mayHaveTakenEffect).toBe(true);
  expect(err.lostReply).toEqual({
    failure: expect.stringMatching(/^POST \/apps failed with 502: /),
    check: "call listApps() and look for an app with the name in the archive's hosting.json",
  });
  expect(err.lostReply!.failure).not.toMatch(/may have taken effect/);
  expect(err.message.startsWith(err.lostReply!.failure)).toBe(true);
  expect(err.message).toMatch(/may have taken effect: call listApps\(\)/);
});

test("a refusal has no lost-reply facts at all", async () => {
  const { zip } = await appZip();
  env.emu.setFaults({ rules: [{ route: "POST /apps", times: 1, status: 409 }] });
  const err = (await env
    .client()
    .createApp({ archivePath: zip })
    .catch((e: unknown) => e)) as HostingError;
  expect(err.mayHaveTakenEffect).toBe(false);
  expect(err.lostReply).toBe(undefined);
});

test("the provider's recovery quotes the failure from the field, without the client's advice", async () => {
  const { name, zip } = await appZip();
  // Applied nowhere: a plain 502 that the client cannot tell from a lost reply.
  env.emu.setFaults({ rules: [{ route: "POST /apps", times: 1, status: 502 }] });
  const err = (await createApp(env.client(), { name }, zip).catch(
    (e: unknown) => e,
  )) as LostCreateReplyError;
  expect(err).toBeInstanceOf(LostCreateReplyError);
  expect(err.message).toMatch(new RegExp(`^creating app "${name}": POST /apps failed with 502: `));
  expect(err.message).not.toMatch(/call listApps\(\)/);
  expect(err.message).toMatch(/did not take effect/);
});
