import { appendFileSync } from "node:fs";
import { join } from "node:path";
import type { RunResult } from "../harness/deployment";
import { requestLog, type LoggedRequest } from "../harness/request-log";
import { spawnEmulator } from "../harness/spawn-emulator";
import { ops } from "../helpers/steps";
import { replaceStack } from "./fixtures/replace/stack";

/*
 * The order of a replace, as the README's "What a deploy does" states it, read from the
 * emulator's own request log: with the platform's subdomain, the custom domain leaves the old
 * app only once the new app exists and goes straight to it, and the old app goes last; with a
 * pinned subdomain the old app is deleted before the new one is made. Order only, no timings
 * (scripts/replace-timeline.js prints those).
 */

const ok = (r: RunResult) => {
  if (!r.ok) throw new Error(`deployment failed (${r.code}):\n${r.stderr}\n${r.stdout}`);
  return r;
};

/** Deploys the fixture, changes one line of its source, and deploys again; the second up's log. */
async function replaceOnce(config: Record<string, string>) {
  const emu = await spawnEmulator(["--log", "--setup-delay-ms", "0"]);
  const log = requestLog(emu.child);
  const { dir, stack } = replaceStack(emu, config);
  try {
    const first = ok(await stack.up());
    appendFileSync(join(dir, "app", "index.js"), "// one more line\n");
    const from = log.length;
    const second = ok(await stack.up());
    return {
      second,
      oldId: first.outputs.appId as string,
      newId: second.outputs.appId as string,
      changing: log.slice(from).filter((r) => r.method !== "GET"),
    };
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

test("a source change: new app, then the domain moves straight across, then the old app goes", async () => {
  const { second, oldId, newId, changing } = await replaceOnce({});
  expect(ops(second)).toEqual({
    App: "replace",
    CustomDomain: "replace",
    AppWebAccess: "replace",
    AppAnalytics: "replace",
  });
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
}, 300_000);

test("a pinned subdomain: the old app is deleted before the new one is made", async () => {
  const { oldId, newId, changing } = await replaceOnce({ "shop:subdomain": "shop-web" });
  const deleted = at(changing, "DELETE", `/apps/${oldId}`);
  const created = at(changing, "POST", "/apps");
  const attached = at(changing, "POST", `/apps/${newId}/domains`);
  expect(deleted).toBeLessThan(created);
  expect(created).toBeLessThan(attached);
}, 300_000);
