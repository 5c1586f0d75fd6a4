import { HostingInputError } from "../../src/api";
import { useEmulator } from "../helpers/emulator";
import { makeZip, manifest } from "../helpers/zip";

/*
 * `createApp({ idempotencyKey })`: the key travels as the Idempotency-Key header, so a service
 * that honours keys answers a repeat with the first app, and one that ignores them (the emulator
 * with honourIdempotencyKeys: false) makes another. A bad key fails before any request. And the
 * POSTs that set a state (attaching a domain) are retried after a 503 like a GET.
 */

const honouring = useEmulator({ seed: "keys-honoured", setupDelayMs: 0 });
const ignoring = useEmulator({
  seed: "keys-ignored",
  setupDelayMs: 0,
  honourIdempotencyKeys: false,
});

const zipOf = (name: string) => makeZip({ "hosting.json": manifest({ name }), "index.js": "" });

test("the same key twice: the first app again where keys are honoured, a second where not", async () => {
  const zip = await zipOf("keyed");
  const key = "test-key-1";
  const a = honouring.client();
  const first = await a.createApp({ archivePath: zip, idempotencyKey: key });
  expect((await a.createApp({ archivePath: zip, idempotencyKey: key })).id).toBe(first.id);
  expect(honouring.emu.world.apps.filter((x) => x.name === "keyed")).toHaveLength(1);

  const b = ignoring.client();
  const one = await b.createApp({ archivePath: zip, idempotencyKey: key });
  const two = await b.createApp({ archivePath: zip, idempotencyKey: key });
  expect(two.id).not.toBe(one.id);
  expect(ignoring.emu.world.apps.filter((x) => x.name === "keyed")).toHaveLength(2);
});

test.each(["", "has space", "x".repeat(256), "tab\there", "é"])(
  "a key %j is refused before any request, naming idempotencyKey",
  async (key) => {
    const zip = await zipOf("refused-key");
    honouring.emu.resetStats();
    const err = await honouring
      .client()
      .createApp({ archivePath: zip, idempotencyKey: key })
      .catch((e: unknown) => e);
    expect(HostingInputError.isInstance(err)).toBe(true);
    expect((err as HostingInputError).property).toBe("idempotencyKey");
    expect(honouring.emu.stats().total).toBe(0);
  },
);

test("attaching a domain answered 503 is sent again (it answers the current record)", async () => {
  const c = honouring.client();
  const { id } = await c.createApp({ archivePath: await zipOf("domain-503") });
  honouring.emu.resetStats();
  honouring.emu.setFaults({
    rules: [{ route: "POST /apps/{app_id}/domains", status: 503, retryAfterSeconds: 0, times: 1 }],
  });
  try {
    const res = await c.attachCustomDomain(id, "domain-503.pointed.test");
    expect(res.custom_hostname.hostname).toBe("domain-503.pointed.test");
    expect(honouring.emu.stats().requests["POST /apps/{app_id}/domains"]).toBe(2);
  } finally {
    honouring.emu.setFaults({});
  }
});
