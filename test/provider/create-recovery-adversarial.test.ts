import { HostingClient } from "../../src/api";
import type { FaultRule } from "../../src/emulator";
import { appSource, useProviderHost } from "../helpers/provider-env";
import { makeZip, manifest } from "../helpers/zip";

/*
 * Lost-reply recovery of POST /apps against an adversarial world, through Pulumi's provider host:
 * apps of other names appear while it looks, our app appears only at the second look, the app
 * list fails in every transient way, and plain refusals must not be mistaken for lost replies.
 */

const env = useProviderHost({ setupDelayMs: 50 });
beforeEach(() => env.emu.resetStats());
afterEach(() => env.emu.setFaults({}));

type Outcome = { id?: string; error?: Error };

/** Checks the App, then (with stats reset and the faults set) creates it through the host. */
async function create(
  name: string,
  rules: FaultRule[],
  extra: Record<string, unknown> = {},
): Promise<Outcome> {
  const urn = env.urn("App", name);
  const checked = await env.host.check(
    urn,
    {},
    await env.inputs("App", { source: await appSource(), name, ...extra }),
  );
  expect(checked.failures).toEqual([]);
  env.emu.resetStats();
  env.emu.setFaults({ rules });
  return env.host.create(urn, checked.inputs).then(
    (r) => ({ id: r.id }),
    (error: Error) => ({ error }),
  );
}

/** Resolves once the emulator has served `n` requests of a route. */
async function served(route: string, n: number): Promise<void> {
  while ((env.emu.stats().requests[route] ?? 0) < n) await new Promise(setImmediate);
}

/** Another program using the same token, ready to make an app at once when called. */
async function strangerReady(
  name: string,
  settings: Record<string, unknown> = {},
): Promise<() => Promise<string>> {
  const zip = await makeZip({ "hosting.json": manifest({ name, ...settings }), "index.js": "" });
  return async () => {
    const stranger = new HostingClient({ apiUrl: env.emu.url, token: env.token });
    try {
      return (await stranger.createApp({ archivePath: zip })).id;
    } finally {
      await stranger.close();
    }
  };
}

const idsNamed = (name: string) =>
  env.emu.world.apps.filter((a) => a.name === name).map((a) => a.id);

test("an app of another name made while the reply is lost is no candidate: ours is adopted", async () => {
  const pending = create("mine", [
    { route: "POST /apps", commitThenStatus: 502, latencyMs: 300, times: 1 },
  ]);
  const makeTheirs = await strangerReady("someone-else");
  await served("POST /apps", 1);
  const theirs = await makeTheirs();
  const out = await pending;
  expect(out.error).toBeUndefined();
  expect(idsNamed("mine")).toEqual([out.id]);
  expect(out.id).not.toBe(theirs);
  expect(idsNamed("someone-else")).toEqual([theirs]);
});

test("an app of our name but another subdomain is no candidate when ours sets one", async () => {
  const pending = create(
    "shop",
    [{ route: "POST /apps", commitThenStatus: 502, latencyMs: 300, times: 1 }],
    { subdomain: "shop-ours" },
  );
  const makeTheirs = await strangerReady("shop", { subdomain: "shop-theirs" });
  await served("POST /apps", 1);
  const theirs = await makeTheirs();
  const out = await pending;
  expect(out.error).toBeUndefined();
  const ours = env.emu.world.apps.filter((a) => a.name === "shop" && a.id !== theirs);
  expect(ours.map((a) => a.id)).toEqual([out.id]);
  expect(idsNamed("shop")).toHaveLength(2);
});

test("our app appears only at the second look (the gateway answered first): it is adopted", async () => {
  // POST /apps answers 504 without making the app; the app is made after the first look by a
  // request the service takes 400 ms over (longer than the provider's least gap between two
  // lists), so only a look that waits can see it.
  const pending = create("late", [
    { route: "POST /apps", status: 504, times: 1 },
    { route: "POST /apps", latencyMs: 400, after: 1, times: 1 },
  ]);
  const makeLate = await strangerReady("late");
  await served("GET /apps", 2); // the "before" list and the first look
  const made = await makeLate();
  const out = await pending;
  expect(out.error).toBeUndefined();
  expect(out.id).toBe(made);
  expect(idsNamed("late")).toEqual([made]);
});

test.each([
  ["400", 400],
  ["409", 409],
])("a plain %s refusal is the service's answer, not a lost reply", async (_label, status) => {
  const out = await create(`refused-${status}`, [{ route: "POST /apps", status, times: 1 }]);
  expect(out.id).toBeUndefined();
  expect(out.error?.message).toContain(`injected fault: HTTP ${status}`);
  expect(out.error?.message).not.toMatch(/reply was lost|may have taken effect/);
  expect(idsNamed(`refused-${status}`)).toEqual([]);
  // Nothing was looked for: the only list is the one taken before the POST.
  expect(env.emu.stats().requests["GET /apps"]).toBe(1);
});

test.each<[string, FaultRule]>([
  ["408", { route: "GET /apps", status: 408, after: 1, times: 4 }],
  ["500", { route: "GET /apps", status: 500, after: 1, times: 4 }],
  ["a connection reset", { route: "GET /apps", reset: true, after: 1, times: 4 }],
])("the app list failing with %s during recovery is asked again", async (label, rule) => {
  const name = `list-${label.replace(/\W/g, "")}`;
  const out = await create(name, [{ route: "POST /apps", commitThenStatus: 502, times: 1 }, rule]);
  expect(out.error).toBeUndefined();
  expect(idsNamed(name)).toEqual([out.id]);
});
