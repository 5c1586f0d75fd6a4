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
