import type { IncomingMessage, ServerResponse } from "node:http";
import { HostingClient, HostingError, type HostingClientOptions } from "../../src/api";
import { makeNetworkError } from "../../src/api/network-errors";
import { useEmulator } from "../helpers/emulator";
import { FAKE_TOKEN, fixtureServer, json, text } from "../helpers/fixture-server";

/*
 * A user of the standalone client (`pulumi-hosting/client`) has no stack config: every error
 * with a known fix names the client's own option, never `pulumi` or a `hosting:*` key.
 */

const PULUMI_WORDING = /pulumi|hosting:/i;

type Reply = (req: IncomingMessage, res: ServerResponse) => void;

async function errorFrom(reply: Reply, options: Partial<HostingClientOptions> = {}) {
  const fx = await fixtureServer([reply]);
  const client = new HostingClient({
    apiUrl: fx.url,
    token: FAKE_TOKEN,
    maxRetries: 0,
    ...options,
  });
  try {
    return (await client.listApps().catch((e: unknown) => e)) as HostingError;
  } finally {
    await client.close();
    await fx.close();
  }
}

const env = useEmulator({ setupDelayMs: 0 });

test("a token the service refuses (the emulator's 401) names the token option", async () => {
  const client = new HostingClient({ apiUrl: env.emu.url, token: FAKE_TOKEN, maxRetries: 0 });
  const err = (await client.listApps().catch((e: unknown) => e)) as HostingError;
  await client.close();
  expect(err.code).toBe("HOSTING_UNAUTHORIZED");
  expect(err.message).toMatch(/; check the token option: it must be a current API token/);
  expect(err.fix?.option).toBe("token");
  expect(err.message.endsWith(err.fix!.advice)).toBe(true);
  expect(err.message).not.toMatch(PULUMI_WORDING);
});

test.each([
  [
    "a redirect",
    ((_q, r) => {
      r.writeHead(302, { location: "https://login.example.test/" });
      r.end();
    }) as Reply,
    {},
    "HOSTING_REDIRECTED",
    "apiUrl",
    /does not follow redirects: check that the apiUrl option is the API's base URL$/,
  ],
  [
    "a page that is not JSON",
    text(200, "<html>login</html>"),
    {},
    "HOSTING_BAD_RESPONSE",
    "apiUrl",
    /not JSON \(login\); check that the apiUrl option is the Hosting API's base URL$/,
  ],
  [
    "a reply past the size limit",
    json(200, [{ pad: "x".repeat(4096) }]),
    { maxResponseBytes: 1024 },
    "HOSTING_REPLY_TOO_LARGE",
    "maxResponseBytes",
    /reply larger than 1024 bytes, refused; raise the maxResponseBytes option if such a reply/,
  ],
] as const)("%s names the client's option", async (_label, reply, options, code, option, fix) => {
  const err = await errorFrom(reply, options);
  expect(err.code).toBe(code);
  expect(err.fix?.option).toBe(option);
  expect(err.message).toMatch(fix);
  expect(err.message).not.toMatch(PULUMI_WORDING);
});

test("nothing listening: check the apiUrl option and that the service is reachable", async () => {
  const fx = await fixtureServer([json(200, [])]);
  await fx.close();
  const client = new HostingClient({ apiUrl: fx.url, token: FAKE_TOKEN, maxRetries: 0 });
  const err = (await client.listApps().catch((e: unknown) => e)) as HostingError;
  await client.close();
  expect(err.code).toBe("HOSTING_CONNECTION_FAILED");
  expect(err.fix?.option).toBe("apiUrl");
  expect(err.message).toMatch(/ECONNREFUSED\); check the apiUrl option and that the service/);
  expect(err.message).not.toMatch(PULUMI_WORDING);
});

test("a connect timeout names apiUrl and connectTimeoutMs", () => {
  // No address that accepts no connection exists offline: undici's error is mapped directly.
  const cause = Object.assign(new Error("Connect Timeout Error"), {
    code: "UND_ERR_CONNECT_TIMEOUT",
  });
  const { error } = makeNetworkError({
    method: "GET",
    path: "/apps",
    address: "api.example.test:443",
    cause,
    connectMs: 10_000,
  });
  expect(error.fix?.option).toBe("apiUrl");
  expect(error.message).toMatch(/check the apiUrl option .*, or raise connectTimeoutMs$/);
  expect(error.message).not.toMatch(PULUMI_WORDING);
});

test.each([
  ["no apiUrl", { apiUrl: "" }, /pass the apiUrl option/],
  ["plain http to another host", { apiUrl: "http://api.example.test" }, /allowInsecureHttp: true/],
  ["a token that is not a JWT", { token: "not a token" }, /API token does not look like a JWT/],
] as Array<[string, Partial<HostingClientOptions>, RegExp]>)(
  "the constructor's refusal of %s speaks of the client's options",
  (_l, bad, fix) => {
    const make = () =>
      new HostingClient({ apiUrl: "https://api.example.test", token: FAKE_TOKEN, ...bad });
    expect(make).toThrow(fix);
    expect(make).not.toThrow(PULUMI_WORDING);
  },
);
