import { HostingClient, HostingTimeoutError } from "../../src/api";
import { FAKE_TOKEN, fixtureServer } from "../helpers/fixture-server";
import { makeZip, manifest } from "../helpers/zip";

/*
 * A reply that never ends: a byte now and then, so the idle limit never runs out. A request
 * without an upload has the overall limit; an upload's reply, from the end of the upload, too.
 */

test("an upload whose reply trickles forever ends by overallTimeoutMs", async () => {
  const timers: NodeJS.Timeout[] = [];
  const fx = await fixtureServer([
    (_req, res) => {
      res.writeHead(201, { "content-type": "application/json" });
      res.write("{");
      timers.push(setInterval(() => res.write(" "), 20));
    },
  ]);
  const zip = await makeZip({ "hosting.json": manifest({ name: "endless" }), "a.js": "" });
  const client = new HostingClient({
    apiUrl: fx.url,
    token: FAKE_TOKEN,
    timeoutMs: 200,
    overallTimeoutMs: 300,
  });
  try {
    const err = (await client
      .createApp({ archivePath: zip })
      .catch((e: unknown) => e)) as HostingTimeoutError;
    expect(err).toBeInstanceOf(HostingTimeoutError);
    expect(err.phase).toBe("overall");
    expect(err.limitMs).toBe(300);
    expect(err.mayHaveTakenEffect).toBe(true);
  } finally {
    timers.forEach(clearInterval);
    await client.close();
    await fx.close();
  }
});
