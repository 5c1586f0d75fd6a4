import type { RunningEmulator } from "../../src/emulator";
import { useEmulators } from "../helpers/emulator";
import { resourceDeclarations } from "../../src/provider/declarations";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import { ProviderHost } from "../helpers/provider-host";
import { appSource, expectNoToken } from "../helpers/provider-env";

/*
 * The native plugin (plugin/, `runtime: nodejs`) as the engine drives it over gRPC: the same
 * handlers as the dynamic resources behind types `hosting:index:<Kind>`, data sources as invokes,
 * secrets as Pulumi secrets, and `pulumi import`'s read with the id alone.
 */

const SIG = "4dabf18193072939515e22adb298388d";
const SECRET = "1b47061264138c4ac30d75fd1eb44270";
const secret = (value: unknown) => ({ [SIG]: SECRET, value });
const urn = (kind: string, name: string) => `urn:pulumi:dev::shop::hosting:index:${kind}::${name}`;

/** A call as the engine sends it, for what the host's helpers leave out (provider-host.js). */
const rawCall = (h: ProviderHost, method: string, req: unknown) =>
  (h as unknown as { call(m: string, r: unknown): Promise<unknown> }).call(method, req);

let emu: RunningEmulator;
const emulators = useEmulators();
let host: ProviderHost;
let token: string;

beforeAll(async () => {
  emu = await emulators.start({ seed: "native", setupDelayMs: 0 });
  token = emu.issueToken();
  host = await ProviderHost.startNative({ HOSTING_LIST_CACHE_MS: "0" });
  // A default provider: the engine sends the stack's `hosting:*` config as variables.
  await host.configure({ "hosting:config:apiUrl": emu.url, "hosting:config:token": token });
});
afterAll(async () => {
  await host?.stop();
});

test("the schema: every kind and data source under `hosting:index:`, secrets and replacements marked", async () => {
  const schema = (await host.getSchema()) as {
    name: string;
    resources: Record<string, { properties: Record<string, { secret?: boolean }> }>;
    functions: Record<string, { outputs: { properties: Record<string, unknown> } }>;
    types: Record<string, { properties?: Record<string, unknown> }>;
    config: { variables: Record<string, { secret?: boolean }> };
    provider: { inputProperties: Record<string, unknown> };
  };
  expect(schema.name).toBe("hosting");
  // Every kind the dynamic resources declare, under the native token.
  expect(Object.keys(schema.resources).sort()).toEqual(
    Object.keys(resourceDeclarations)
      .map((k) => `hosting:index:${k}`)
      .sort(),
  );
  expect(Object.keys(schema.functions)).toEqual(
    expect.arrayContaining(["hosting:index:getDatabases", "hosting:index:getApp"]),
  );
  expect(schema.resources["hosting:index:App"].properties.env.secret).toBe(true);
  expect(schema.resources["hosting:index:App"]).toMatchObject({
    inputProperties: { name: { type: "string", replaceOnChanges: true } },
    // `name` is optional: an App without one is named after its resource and stack.
    requiredInputs: ["source"],
  });
  // A value of any type is `Any`: an empty object type in its place (getAppDashboard's series)
  // made the Go SDK refuse the service's strings and numbers.
  expect(
    Object.keys(schema.types).filter(
      (t) => Object.keys(schema.types[t].properties ?? {}).length === 0,
    ),
  ).toEqual([]);
  expect(
    schema.functions["hosting:index:getAppDashboard"].outputs.properties.browserData,
  ).toMatchObject({
    type: "array",
    items: { type: "object", additionalProperties: { $ref: "pulumi.json#/Any" } },
  });
  expect(schema.config.variables.token.secret).toBe(true);
  expect(Object.keys(schema.provider.inputProperties)).toEqual(
    expect.arrayContaining(["apiUrl", "token", "accounts"]),
  );
});

test("App: check keeps env secret, create answers with secret outputs and no token, refresh and delete", async () => {
  const u = urn("App", "web");
  const news = { source: await appSource(), name: "native-web", env: secret({ KEY: "v" }) };
  const checked = await host.check(u, {}, news);
  expect(checked.failures).toEqual([]);
  expect(checked.inputs.env).toEqual(secret({ KEY: "v" }));
  expect(checked.inputs.sourceHash).toMatch(/^[0-9a-f]{64}$/);

  const created = await host.create(u, checked.inputs);
  expect(emu.world.apps.find((a) => a.id === created.id)?.name).toBe("native-web");
  expect(created.properties.env).toEqual(secret({ KEY: "v" }));
  expect(created.properties).toMatchObject({ name: "native-web", setup: true });
  expectNoToken(created, token);

  expect(await host.diff(created.id, u, created.properties, checked.inputs)).toMatchObject({
    changes: false,
  });
  const read = await host.read(created.id, u, created.properties, checked.inputs);
  expect(read.id).toBe(created.id);
  expect(read.properties.env).toEqual(secret({ KEY: "v" }));

  await host.delete(created.id, u, created.properties);
  expect(emu.world.apps.find((a) => a.id === created.id)).toBeUndefined();
});

test("a bad input fails check naming the property, before any request", async () => {
  emu.resetStats();
  const bad = await host.check(urn("App", "bad"), {}, { source: await appSource(), name: "" });
  expect(bad.failures).toEqual([{ property: "name", reason: expect.stringMatching(/name must/) }]);
  expect(emu.stats().total).toBe(0);
});

test("pulumi import: an App, a CustomDomain (by hostname) and AppAnalytics are read from the id alone", async () => {
  const app = await host.create(
    urn("App", "made"),
    (await host.check(urn("App", "made"), {}, { source: await appSource(), name: "imp", ram: 256 }))
      .inputs,
  );
  await host.create(urn("CustomDomain", "d"), { appId: app.id, domain: "www.imp.pointed.test" });
  emu.resetStats();

  const imported = await host.read(app.id, urn("App", "imported"), {});
  expect(imported.id).toBe(app.id);
  expect(imported.inputs).toMatchObject({ name: "imp", ram: 256 });
  // The service cannot show an app's source: the generated code gets a placeholder for it.
  expect(imported.inputs?.source).toBe("<the folder or .zip of this app's code>");

  const domain = await host.read("www.imp.pointed.test", urn("CustomDomain", "imported"), {});
  expect(domain.inputs).toEqual({ appId: app.id, domain: "www.imp.pointed.test" });

  const analytics = await host.read(app.id, urn("AppAnalytics", "imported"), {});
  expect(analytics.inputs).toEqual({ appId: app.id, enabled: false });
  // Reads only: an import's preview must change nothing.
  const changing = Object.keys(emu.stats().requests).filter((r) => !r.startsWith("GET "));
  expect(changing).toEqual([]);
});

test("pulumi import's own check passes without what the service cannot show; a program's check names the placeholder", async () => {
  const u = urn("App", "checked");
  const made = await host.create(
    u,
    (await host.check(u, {}, { source: await appSource(), name: "chk" })).inputs,
  );
  // The engine checks what the read answered, as old and new inputs (step.go, ImportStep).
  const web = (await host.read(made.id, urn("AppWebAccess", "wa"), {})).inputs ?? {};
  expect(web).toEqual({ appId: made.id });
  expect((await host.check(urn("AppWebAccess", "wa"), web, web)).failures).toEqual([]);
  const read = await host.read(made.id, urn("App", "imp"), {});
  const inputs = read.inputs!;
  expect((await host.check(urn("App", "imp"), inputs, inputs)).failures).toEqual([]);

  // A program that kept the placeholder: refused, naming the property and the fix, whatever
  // process checks it (here another URN; a later `pulumi preview` is another process).
  const kept = await host.check(urn("App", "program"), inputs, inputs);
  expect(kept.failures).toEqual([
    {
      property: "source",
      reason: expect.stringMatching(/placeholder `pulumi import` wrote.*folder or \.zip/),
    },
  ]);
  // The same process, other inputs: the full check.
  const { name: _, ...noName } = inputs;
  expect((await host.check(urn("App", "imp"), inputs, noName)).failures).toEqual(
    expect.arrayContaining([expect.objectContaining({ property: "name" })]),
  );
  await host.delete(made.id, u, made.properties);
});

test('pulumi import of an id no object has, or of an action: a read with no properties (the engine\'s "does not exist"), and a line naming the id and the API', async () => {
  const other = await ProviderHost.startNative({ HOSTING_LIST_CACHE_MS: "0" });
  try {
    await other.configure({ apiUrl: emu.url, token: secret(token) });
    const raw = async (id: string, kind: string) => {
      const req = new provproto.ReadRequest();
      req.setId(id);
      req.setUrn(urn(kind, "x"));
      req.setProperties(Struct.fromJavaScript({}));
      return (await rawCall(other, "read", req)) as provproto.ReadResponse;
    };
    for (const [kind, id] of [
      ["App", "no-such-app"],
      ["CustomDomain", "www.nowhere.test"],
      ["AppAnalytics", "no-such-app"],
      ["AppWebAccess", "no-such-app"],
      ["VmStart", "vm-1"],
    ]) {
      const res = await raw(id, kind);
      expect([kind, res.getId(), res.hasProperties()]).toEqual([kind, "", false]);
    }
    const lines = [
      `no app "no-such-app" under this provider's account (API ${emu.url}/)`,
      'no custom domain (by hostname) "www.nowhere.test"',
      "an action cannot be imported: it leaves nothing",
    ];
    const said = await other.printed("stderr", lines);
    for (const line of lines) expect(said).toContain(line);
    expect(said).not.toContain(token);
  } finally {
    await other.stop();
  }
});

test("CheckConfig seals what the schema marks secret in a provider's own inputs, nested and as JSON text", async () => {
  const check = async (news: Parameters<typeof Struct.fromJavaScript>[0]) => {
    const req = new provproto.CheckRequest();
    req.setUrn("urn:pulumi:dev::shop::pulumi:providers:hosting::other");
    req.setOlds(Struct.fromJavaScript({}));
    req.setNews(Struct.fromJavaScript(news));
    const res = (await rawCall(host, "checkConfig", req)) as provproto.CheckResponse;
    expect(res.getFailuresList()).toEqual([]);
    return res.getInputs()?.toJavaScript();
  };
  const accounts = { x: { apiUrl: emu.url, token: "t-x" }, y: { apiUrl: emu.url } };
  expect(await check({ apiUrl: emu.url, token: "t", accounts, version: "0.1.0" })).toEqual({
    apiUrl: emu.url,
    token: secret("t"),
    accounts: { x: { apiUrl: emu.url, token: secret("t-x") }, y: { apiUrl: emu.url } },
    version: "0.1.0",
  });
  // As an SDK sends a structured argument: JSON text, sealed whole.
  expect(await check({ accounts: JSON.stringify(accounts) })).toEqual({
    accounts: secret(JSON.stringify(accounts)),
  });
  // A list where accounts are an object (a wrong value) may hold anything: sealed whole.
  expect(await check({ accounts: [{ token: "t-x" }] })).toEqual({
    accounts: secret([{ token: "t-x" }]),
  });
  // A key an account does not have (a misspelt token) is sealed too.
  expect(await check({ accounts: { x: { tokn: "t-x" } } })).toEqual({
    accounts: { x: { tokn: secret("t-x") } },
  });
});

test("data sources are invokes: lists under `items`, a connection URL as a secret", async () => {
  const apps = await host.invoke("hosting:index:getApps", {});
  expect(Array.isArray(apps.outputs.items)).toBe(true);
  const dbs = await host.invoke("hosting:index:getDatabases", { serviceType: "postgres" });
  const [db] = dbs.outputs.items as Array<{ id: string; serviceType: string }>;
  expect(db.serviceType).toBe("postgres");
  const conn = await host.invoke("hosting:index:getDatabaseConnection", { databaseId: db.id });
  expect(conn.outputs.connectionUrl).toEqual(secret(expect.stringContaining("://")));
  await expect(host.invoke("hosting:index:getNothing", {})).rejects.toThrow(/no function/);
});

test("an explicit provider uses its own URL and token (Configure's arguments), not the stack's", async () => {
  const bob = emu.issueToken(emu.users[1].id);
  const other = await ProviderHost.startNative({ HOSTING_LIST_CACHE_MS: "0" });
  try {
    await other.configure({ apiUrl: emu.url, token: secret(bob) });
    const u = urn("App", "bobs");
    const checked = await other.check(u, {}, { source: await appSource(), name: "bobs-app" });
    const created = await other.create(u, checked.inputs);
    expect(emu.world.apps.find((a) => a.id === created.id)?.user_id).toBe(emu.users[1].id);
    expectNoToken(created, bob);
  } finally {
    await other.stop();
  }
});

test("a POST /apps whose reply is lost after it took effect: the one app made is adopted, no duplicate", async () => {
  const u = urn("App", "lost");
  const checked = await host.check(u, {}, { source: await appSource(), name: "native-lost" });
  emu.setFaults({ rules: [{ route: "POST /apps", commitThenDrop: true, times: 1 }] });
  try {
    const created = await host.create(u, checked.inputs);
    const apps = emu.world.apps.filter((a) => a.name === "native-lost");
    expect(apps.map((a) => a.id)).toEqual([created.id]);
  } finally {
    emu.setFaults({});
  }
});
