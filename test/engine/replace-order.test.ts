import { appendFileSync } from "node:fs";
import { join } from "node:path";
import { requestLog, type LoggedRequest } from "../helpers/request-log";
import { spawnEmulator } from "../helpers/spawn-emulator";
import { describeEngine, ok, opsByName, projectFrom, PulumiStack } from "../helpers/engine";

jest.setTimeout(240_000);

/*
 * The order of a replace, as the README's "What a deploy does" states it, through the real
 * engine and read from the emulator's own request log. Order only, never timings.
 */

const FIXTURE = join(__dirname, "..", "e2e", "fixtures", "replace");

/** Deploys the fixture, changes one line of its source, deploys again; the second up's log. */
async function replaceOnce(config: Record<string, string>) {
  const emu = await spawnEmulator(["--log", "--setup-delay-ms", "0"]);
  const log = requestLog(emu.child);
  try {
    const dir = projectFrom(FIXTURE);
    const stack = new PulumiStack({ dir, project: "shop", env: { HOSTING_LIST_CACHE_MS: "0" } });
    await stack.init({
      config: { "hosting:apiUrl": emu.url, ...config },
      secrets: { "hosting:token": emu.token },
    });
    ok(await stack.up());
    const oldId = (await stack.outputs()).appId as string;
    appendFileSync(join(dir, "app", "index.js"), "// one more line\n");
    const preview = ok(await stack.preview(["--diff"]));
    const from = log.length;
    const second = ok(await stack.up());
    const newId = (await stack.outputs()).appId as string;
    const changing = log.slice(from).filter((r) => r.method !== "GET");
    ok(await stack.destroy());
    return { preview, second, oldId, newId, changing };
  } finally {
    await emu.stop();
  }
}

/** Where in `log` the one request `method path` was answered (2xx). */
function at(log: LoggedRequest[], method: string, url: string): number {
  const found = log.filter((r) => r.method === method && r.url === url);
  expect(found).toEqual([expect.objectContaining({ status: 200 })]);
  return log.indexOf(found[0]);
}

describeEngine("the order of a replace through the Pulumi CLI", () => {
  test("a source change: new app, then the domain moves straight across, then the old app goes", async () => {
    const { preview, second, oldId, newId, changing } = await replaceOnce({});
    const planned = {
      web: "replace",
      www: "replace",
      "web-access": "replace",
      analytics: "replace",
    };
    expect(opsByName(preview)).toMatchObject(planned);
    expect(opsByName(second)).toMatchObject(planned);
    expect(newId).not.toBe(oldId);
    const created = at(changing, "POST", "/apps");
    const detached = at(changing, "DELETE", `/apps/${oldId}/domains`);
    const attached = at(changing, "POST", `/apps/${newId}/domains`);
    const deleted = at(changing, "DELETE", `/apps/${oldId}`);
    expect(created).toBeLessThan(detached);
    expect(detached).toBeLessThan(attached);
    expect(attached).toBeLessThan(deleted);
    // Between detach and attach only the new app's web access and analytics may be set.
    const between = changing.slice(detached + 1, attached).map((r) => r.url);
    expect(between.every((u) => u.startsWith(`/apps/${newId}/`))).toBe(true);
  });

  test("a pinned subdomain: the old app is deleted before the new one is made", async () => {
    const { oldId, newId, changing } = await replaceOnce({ "shop:subdomain": "shop-web" });
    const deleted = at(changing, "DELETE", `/apps/${oldId}`);
    const created = at(changing, "POST", "/apps");
    const attached = at(changing, "POST", `/apps/${newId}/domains`);
    expect(deleted).toBeLessThan(created);
    expect(created).toBeLessThan(attached);
  });
});
