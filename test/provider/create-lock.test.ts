import { HostingClient } from "../../src/api";
import { createApp } from "../../src/provider/app/create-app";
import { useEmulator } from "../helpers/emulator";
import { makeZip, manifest } from "../helpers/zip";

/*
 * Two resources of one account, one with the API URL spelled `127.0.0.1`, the other `localhost`,
 * create same-named apps at once. The first POST is applied but its reply is lost; the second is
 * refused before it was applied (a plain 502). Raced, both recoveries see one new app and take
 * it: two resources, one app. The create lock keys on the account, so they run one after another,
 * and the second, proven not applied, is sent again and makes its own app.
 */

const env = useEmulator({ setupDelayMs: 0 });

test("aliases of one service do not race: two resources never end up with one app", async () => {
  env.emu.setFaults({
    rules: [
      { route: "POST /apps", times: 1, commitThenStatus: 502 },
      { route: "POST /apps", after: 1, times: 1, status: 502 },
    ],
  });
  const token = env.emu.issueToken();
  const numeric = new HostingClient({ apiUrl: env.emu.url, token });
  const named = new HostingClient({ apiUrl: env.emu.url.replace("127.0.0.1", "localhost"), token });
  expect(named.apiUrl).not.toBe(numeric.apiUrl);
  const zip = await makeZip({
    "hosting.json": manifest({ name: "twin", ram: 512, entrypoint: "server.js" }),
    "server.js": "",
  });
  try {
    const results = await Promise.allSettled([
      createApp(numeric, { name: "twin" }, zip),
      createApp(named, { name: "twin" }, zip),
    ]);
    const ids = results.flatMap((r) => (r.status === "fulfilled" ? [r.value.id] : []));
    // One create made an app and took it; the other, proven not applied, was sent again and made
    // its own: two resources, two apps, never one app held twice.
    expect(ids).toHaveLength(2);
    expect(new Set(ids).size).toBe(2);
    const twins = (await numeric.listApps()).filter((a) => a.app.name === "twin");
    expect(twins.map((a) => a.app.id).sort()).toEqual([...ids].sort());
  } finally {
    env.emu.setFaults({});
    await numeric.close();
    await named.close();
  }
});
