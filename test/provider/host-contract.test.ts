import * as pulumi from "@pulumi/pulumi";
import type { ResourceKind } from "../../src/provider/handlers";
import { ProviderHost } from "../helpers/provider-host";
import { InProcessProvider, type ProviderCalls } from "../helpers/in-process-provider";
import { appSource, useProviderHost } from "../helpers/provider-env";
import { serializedProvider } from "../helpers/serialize";

/*
 * The contract between the handlers and Pulumi's own dynamic-provider host, which the other
 * provider tests skip by calling the handlers in-process: the same calls through the real host
 * (a child process over gRPC) and through the in-process driver give the same answers. Also
 * here: configure, check, a create that fails to initialise (its id reaches the engine), read
 * with and without changed inputs, delete. And what only the host shows: that it passes its
 * environment on (HOSTING_API_URL, HOSTING_TOKEN, HOSTING_LOG), that it loads the earlier
 * serialized `__provider` texts (a closure that requires more than the package), and that the
 * progress lines and the debug log reach its stdout and stderr, which the engine reads.
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

/** `__provider` as earlier builds wrote it: Pulumi's serializeFunction over a methods object. */
async function earlierProviderText(kind: ResourceKind): Promise<string> {
  type Methods = ReturnType<typeof import("../../src/provider/handlers").providerHandlers>;
  // The text must `require` the package at call time, as the old provider object did.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const m = () => (require("pulumi-hosting") as typeof import("../../src")).providerHandlers(kind);
  const provider = {
    configure: (r: Parameters<Methods["configure"]>[0]) => m().configure(r),
    check: (o: Props, n: Props) => m().check(o, n),
    diff: (i: string, o: Props, n: Props) => m().diff(i, o, n),
    create: (n: Props) => m().create(n),
    read: (i: string, p: Props) => m().read(i, p),
    update: (i: string, o: Props, n: Props) => m().update(i, o, n),
    delete: (i: string, p: Props) => m().delete(i, p),
  };
  return (await pulumi.runtime.serializeFunction(() => provider, { allowSecrets: true })).text;
}
type Props = Record<string, unknown>;

describe("what only the host shows", () => {
  let host: ProviderHost;
  beforeAll(async () => {
    host = await ProviderHost.start({
      HOSTING_API_URL: env.emu.url,
      HOSTING_TOKEN: env.token,
      HOSTING_LIST_CACHE_MS: "0",
      HOSTING_LOG: "debug",
      HOSTING_PROGRESS_SECONDS: "0.5",
    });
    await host.configure({});
  });
  afterAll(() => host?.stop());

  test("without stack config, its HOSTING_API_URL and HOSTING_TOKEN are used", async () => {
    const urn = env.urn("App", "from-env");
    const inputs = await env.inputs("App", { source: await appSource(), name: "from-env" });
    const created = await host.create(urn, (await host.check(urn, {}, inputs)).inputs);
    expect(env.emu.world.apps.some((a) => a.id === created.id)).toBe(true);
  });

  test("a stack written with the earlier, serialized __provider: read, diff against today's inputs and delete keep working", async () => {
    const urn = env.urn("App", "earlier");
    const earlier = await earlierProviderText("App");
    expect(Buffer.byteLength(earlier)).toBeGreaterThan(1024);
    const program = { source: await appSource(), name: "earlier" };
    const checked = await host.check(urn, {}, { __provider: earlier, ...program });
    const created = await host.create(urn, checked.inputs);
    expect(created.properties.__provider).toBe(earlier);

    const read = await host.read(created.id, urn, created.properties);
    expect(read.properties).toMatchObject({ name: "earlier", setup: true });
    const today = await host.check(urn, checked.inputs, {
      __provider: await serializedProvider("App"),
      ...program,
    });
    expect(await host.diff(created.id, urn, read.properties, today.inputs)).toMatchObject({
      changes: false,
      replaces: [],
    });
    await host.delete(created.id, urn, read.properties);
    expect(env.emu.world.apps.some((a) => a.id === created.id)).toBe(false);
  });

  test("progress reaches its stdout (what the engine shows), the debug log its stderr, no token", async () => {
    env.emu.setFaults({
      rules: [{ route: "GET /apps", status: 429, retryAfterSeconds: 1, times: 1 }],
    });
    try {
      const urn = env.urn("App", "progress");
      const inputs = await env.inputs("App", { source: await appSource(), name: "progress" });
      await host.create(urn, (await host.check(urn, {}, inputs)).inputs);
    } finally {
      env.emu.setFaults({});
    }
    const throttled = /^hosting: GET \/apps: throttled by the service, waiting 1 s$/m;
    const posted = /^hosting debug: POST \/apps -> ok in \d+ ms \(attempt 1\)$/m;
    const retried = /GET \/apps: retry after attempt 1 \(throttled 429\)/;
    expect(await host.printed("stdout", [throttled])).toMatch(throttled);
    const log = await host.printed("stderr", [posted, retried]);
    expect(log).toMatch(posted);
    expect(log).toMatch(retried);
    expect(host.stdout() + host.stderr()).not.toContain(env.token.split(".")[2]);
  });
});
