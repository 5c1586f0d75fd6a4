import { InProcessProvider, type ProviderCalls } from "../helpers/in-process-provider";
import { appSource, useProviderHost } from "../helpers/provider-env";

/*
 * The contract between the handlers and Pulumi's own dynamic-provider host, which the other
 * provider tests skip by calling the handlers in-process: the same calls through the real host
 * (a child process over gRPC) and through the in-process driver give the same answers. Also
 * here: configure, check, a create that fails to initialise (its id reaches the engine), read
 * with and without changed inputs, delete. Config and the earlier serialized `__provider` text
 * are covered through the host in config-and-closures.test.ts.
 */

const env = useProviderHost({ setupDelayMs: 0, domainActivationMs: 3_600_000 }, { listCacheMs: 0 });
let inProcess: InProcessProvider;
beforeAll(async () => {
  inProcess = await InProcessProvider.start({ HOSTING_LIST_CACHE_MS: "0" });
  await inProcess.configure({ "hosting:apiUrl": env.emu.url, "hosting:token": env.token });
});
afterAll(() => inProcess?.stop());

const roads: Array<[string, () => ProviderCalls]> = [
  ["the provider host", () => env.host],
  ["in-process", () => inProcess],
];

/** What the service or the file system made differently for each road, masked to compare. */
const MADE = new Set(["source", "createdAt", "lastSetupAt", "subdomain"]);
const masked = (v: unknown, ids: string[]): unknown =>
  JSON.parse(JSON.stringify(v, (k, x) => (MADE.has(k) ? "<made>" : ids.includes(x) ? "<id>" : x)));

describe.each(roads)("through %s", (road, host) => {
  test("check: bad inputs are failures, good ones come back with __provider", async () => {
    const urn = env.urn("App", "c");
    const bad = await host().check(urn, {}, await env.inputs("App", { name: "", ram: 5 }));
    expect(bad.failures.map((f) => f.property).sort()).toEqual(["name", "ram", "source"]);
    const good = await host().check(
      urn,
      {},
      await env.inputs("App", { source: await appSource(), name: "c" }),
    );
    expect(good.failures).toEqual([]);
    expect(good.inputs.__provider).toBe((await env.inputs("App", {})).__provider);
  });

  test("create that fails to initialise: the error carries the id and the state to keep", async () => {
    const app = await env.newApp(`init-${road.replace(/\W+/g, "-")}`);
    const urn = env.urn("CustomDomain", "www");
    const domain = `init-${road.replace(/\W+/g, "-")}.pointed.test`;
    const inputs = { appId: app.id, domain, waitForActive: true, activeTimeoutSeconds: 0.1 };
    const c = await host().check(urn, {}, await env.inputs("CustomDomain", inputs));
    const err = (await host()
      .create(urn, c.inputs)
      .catch((e: unknown) => e)) as Error & {
      initFailure?: { id: string; properties: Record<string, unknown>; reasons: string[] };
    };
    expect(err.initFailure?.id).toBeTruthy();
    expect(err.initFailure?.properties).toMatchObject({
      domain,
      status: "pending",
      __provider: c.inputs.__provider,
    });
    expect(env.emu.world.apps.find((a) => a.id === app.id)!.domain?.hostname).toBe(domain);
  });

  test("read: inputs only when they drifted; a gone object answers no id; delete twice is fine", async () => {
    const urn = env.urn("App", "r");
    const made = await env.newApp(`read-${road.replace(/\W+/g, "-")}`);
    const same = await host().read(made.id, urn, made.properties);
    expect(same.id).toBe(made.id);
    expect(same.inputs).toBeUndefined();
    env.emu.world.apps.find((a) => a.id === made.id)!.ram = 2048;
    const drifted = await host().read(made.id, urn, made.properties);
    expect(drifted.inputs).toMatchObject({ ram: 2048, __provider: made.properties.__provider });
    await host().delete(made.id, urn, made.properties);
    await host().delete(made.id, urn, made.properties);
    expect(await host().read(made.id, urn, made.properties)).toEqual({
      id: "",
      properties: { __provider: made.properties.__provider },
      inputs: undefined,
    });
  });
});

test("both roads give the same answers to the same calls", async () => {
  const answers: unknown[] = [];
  for (const [, host] of roads) {
    const urn = env.urn("App", "same");
    const source = await appSource();
    const checked = await host().check(urn, {}, await env.inputs("App", { source, name: "same" }));
    const created = await host().create(urn, checked.inputs);
    const bigger = await host().check(
      urn,
      checked.inputs,
      await env.inputs("App", { source, name: "same", ram: 1024 }),
    );
    const diff = await host().diff(created.id, urn, created.properties, bigger.inputs);
    const read = await host().read(created.id, urn, created.properties);
    const patient = { ...checked.inputs, setupTimeoutSeconds: 60 };
    const updated = await host().update(created.id, urn, created.properties, patient);
    const missing = await host()
      .create(urn, { ...checked.inputs, adoptId: "nope" })
      .catch((e: Error) => e.message);
    await host().delete(created.id, urn, updated);
    const ids = [created.id, String(created.properties.userId)];
    answers.push(masked({ checked, created, diff, read, updated, missing }, ids));
  }
  // Source hashes are of the content only: both folders hold the same files.
  expect(answers[1]).toEqual(answers[0]);
});
