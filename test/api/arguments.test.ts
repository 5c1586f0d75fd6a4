import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HostingClient, HostingInputError } from "../../src/api";
import { FAKE_TOKEN, fixtureServer, json } from "../helpers/fixture-server";

/* Arguments that cannot be sent as asked are the caller's input error, before any request. */

async function refused(call: (c: HostingClient) => Promise<unknown>) {
  const fx = await fixtureServer([json(200, {})]);
  const client = new HostingClient({ apiUrl: fx.url, token: FAKE_TOKEN, maxRetries: 0 });
  try {
    const err = await call(client).then(
      () => undefined,
      (e: unknown) => e,
    );
    return { err: err as HostingInputError, requests: fx.seen.length };
  } finally {
    await client.close();
    await fx.close();
  }
}

const LONE_HIGH = "app-\uD800-x";
const LONE_LOW = "\uDC00";

describe("IDs and strings that are not well-formed Unicode", () => {
  test.each([
    [
      "a path ID with a lone high surrogate",
      (c: HostingClient) => c.deleteApp(LONE_HIGH),
      "app_id",
    ],
    ["a path ID with a lone low surrogate", (c: HostingClient) => c.startVm(LONE_LOW), "vm_id"],
    [
      "a query value with a lone surrogate",
      (c: HostingClient) => c.listRuntimeVersions({ language: `node${LONE_LOW}` }),
      "language",
    ],
    [
      "a workspace ID with a lone surrogate",
      (c: HostingClient) => c.listDatabases({ workspaceId: LONE_HIGH }),
      "workspace_id",
    ],
  ])("%s is a HostingInputError naming it, not a URIError", async (_name, call, property) => {
    const { err, requests } = await refused(call);
    expect(err).toBeInstanceOf(HostingInputError);
    expect(err.property).toBe(property);
    expect(err.message).toMatch(/not well-formed Unicode/);
    expect(requests).toBe(0);
  });

  test("a proper surrogate pair (an emoji) is sent percent-encoded", async () => {
    const fx = await fixtureServer([json(200, { message: "ok" })]);
    const c = new HostingClient({ apiUrl: fx.url, token: FAKE_TOKEN });
    await c.startVm("vm-😀");
    await c.close();
    await fx.close();
    expect(fx.seen[0].url).toBe("/vms/vm-%F0%9F%98%80/start");
  });
});

describe("minutes: a whole number within the documented 1..43200", () => {
  test.each([1e21, 43_201, 0, -5, 1.5, Number.NaN, Infinity])("%p is refused", async (minutes) => {
    const { err, requests } = await refused((c) => c.getAppMetrics("app", { minutes }));
    expect(err).toBeInstanceOf(HostingInputError);
    expect(err.property).toBe("minutes");
    expect(err.message).toBe("minutes must be a whole number from 1 to 43200");
    expect(requests).toBe(0);
  });

  test("43200 is sent as digits", async () => {
    const fx = await fixtureServer([
      json(200, { ram: [], vcpu: [], storage: 0, network_receive: [], network_send: [] }),
    ]);
    const c = new HostingClient({ apiUrl: fx.url, token: FAKE_TOKEN });
    await c.getAppMetrics("app", { minutes: 43_200 });
    await c.close();
    await fx.close();
    expect(fx.seen[0].url).toBe("/apps/app/metrics?minutes=43200");
  });
});

describe("client limits", () => {
  test.each(["timeoutMs", "connectTimeoutMs", "overallTimeoutMs", "maxResponseBytes"] as const)(
    "%s must be a positive number",
    (name) => {
      for (const bad of [0, -1, Number.NaN, Infinity]) {
        let err: unknown;
        try {
          new HostingClient({ apiUrl: "http://127.0.0.1:9", token: FAKE_TOKEN, [name]: bad });
        } catch (e) {
          err = e;
        }
        expect(err).toBeInstanceOf(HostingInputError);
        expect((err as HostingInputError).property).toBe(name);
      }
    },
  );
});

describe("userAgent and onRetry", () => {
  test.each([
    ["userAgent", "tool/1.0\r\nx-injected: 1"],
    ["userAgent", "tool/€1"], // beyond Latin-1: undici would refuse it when sending
    ["userAgent", 42],
    ["onRetry", "log"],
  ])("%s %j is refused when the client is made", (name, bad) => {
    const make = () =>
      new HostingClient({ apiUrl: "http://127.0.0.1:9", token: FAKE_TOKEN, [name]: bad as never });
    expect(make).toThrow(HostingInputError);
    expect(make).toThrow(expect.objectContaining({ property: name }));
  });

  test("a userAgent with Latin-1 letters is sent", async () => {
    const fx = await fixtureServer([json(200, [])]);
    const c = new HostingClient({ apiUrl: fx.url, token: FAKE_TOKEN, userAgent: "outil-été/1" });
    await c.listApps();
    await c.close();
    await fx.close();
    expect(fx.seen[0].headers["user-agent"]).toBe("outil-été/1"); // Latin-1, as HTTP allows
  });
});

describe("createApp archivePath and env text", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "hosting-args-"));
    await writeFile(join(dir, "empty.zip"), "");
  });

  test.each([
    ["a 0-byte file", () => join(dir, "empty.zip"), /archivePath is empty: ".*empty\.zip"/],
    ["a missing file", () => join(dir, "nope.zip"), /is not a readable file/],
    ["a directory", () => dir, /is not a readable file/],
    ["no options at all", () => undefined, /is not a readable file/],
  ])("%s is refused naming archivePath, nothing sent", async (_label, path, message) => {
    const p = path();
    const { err, requests } = await refused((c) =>
      c.createApp((p === undefined ? undefined : { archivePath: p }) as never),
    );
    expect(err).toBeInstanceOf(HostingInputError);
    expect(err.property).toBe("archivePath");
    expect(err.message).toMatch(message);
    expect(requests).toBe(0);
  });

  test.each([
    ["A=${HOME}", "env.A", /python-dotenv replaces/],
    ["OK=1\n1BAD=x", "env.1BAD", /not a valid variable name/],
  ])("env text %j is checked like the map form", async (text, property, message) => {
    const archivePath = join(dir, "empty.zip");
    const { err, requests } = await refused((c) => c.createApp({ archivePath, env: text }));
    expect(err).toBeInstanceOf(HostingInputError);
    expect(err.property).toBe(property);
    expect(err.message).toMatch(message);
    expect(requests).toBe(0);
  });
});

describe("attachCustomDomain hostname", () => {
  test.each(["not a host", "", "https://www.example.com", "www.example.com:443", "ex ample.com"])(
    "%j is refused naming customDomain, nothing sent",
    async (domain) => {
      const { err, requests } = await refused((c) => c.attachCustomDomain("app-1", domain));
      expect(err).toBeInstanceOf(HostingInputError);
      expect(err.property).toBe("customDomain");
      expect(err.message).toContain("www.example.com");
      expect(requests).toBe(0);
    },
  );

  test("a punycode name is sent", async () => {
    const fx = await fixtureServer([json(200, { custom_domain: "x" })]);
    const client = new HostingClient({ apiUrl: fx.url, token: FAKE_TOKEN, maxRetries: 0 });
    try {
      await client.attachCustomDomain("app-1", "www.xn--e1afmkfd.xn--p1ai").catch(() => undefined);
      expect(fx.seen.map((r) => r.method)).toEqual(["POST"]);
    } finally {
      await client.close();
      await fx.close();
    }
  });
});

describe("apiUrl", () => {
  test("a missing apiUrl names the option in the client's words, not Pulumi's", () => {
    const err = (() => {
      try {
        new HostingClient({ apiUrl: "", token: FAKE_TOKEN });
      } catch (e) {
        return e as Error;
      }
    })();
    expect(err?.message).toMatch(/apiUrl option.*HOSTING_API_URL/);
    // The provider adds its `hosting:*` hints itself; the standalone client has no stack config.
    expect(err?.message).not.toMatch(/pulumi config|hosting:/);
  });
});
