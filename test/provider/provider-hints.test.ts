import type * as pulumi from "@pulumi/pulumi";
import { HostingClient, HostingReplyTooLargeError, type HostingError } from "../../src/api";
import { makeApiError } from "../../src/api/status-errors";
import { providerHandlers } from "../../src/provider/handlers";
import { providerHint, withProviderHint } from "../../src/connection/error-hints";
import { FAKE_TOKEN, fixtureServer, json, text } from "../helpers/fixture-server";

/*
 * The client speaks no Pulumi; the provider says which stack setting to fix, by error code.
 */

const configure = (values: Record<string, string>) =>
  providerHandlers("App").configure({
    config: new Map(Object.entries(values)),
  } as unknown as pulumi.dynamic.ConfigureRequest);

/** The client's own fixes, which a provider user cannot apply: never in the provider's words. */
const CLIENT_OPTIONS = /\b(apiUrl|token) option\b|maxResponseBytes|connectTimeoutMs/;

type Reply = Parameters<typeof fixtureServer>[0][number];

/** One read through the provider (configured with `config`) against a server saying `reply`. */
async function viaProvider(reply: Reply, config: Record<string, string> = {}, state = {}) {
  const fx = await fixtureServer([reply]);
  try {
    const mib = config["hosting:maxResponseMiB"];
    const client = new HostingClient({
      apiUrl: fx.url,
      token: FAKE_TOKEN,
      maxRetries: 0,
      maxResponseBytes: mib === undefined ? undefined : Number(mib) * 1024 * 1024,
    });
    const direct = (await client.listApps().catch((e: unknown) => e)) as HostingError;
    await client.close();
    await configure({ "hosting:apiUrl": fx.url, "hosting:token": FAKE_TOKEN, ...config });
    const provider = (await providerHandlers("App")
      .read("app-1", state)
      .catch((e: unknown) => e)) as HostingError;
    return { direct, provider };
  } finally {
    await fx.close();
  }
}

test.each([
  [
    "a refused token",
    json(401, { error: "token expired" }),
    {},
    /token expired; check hosting:token: it must be a current API token of the account; set it with `pulumi config set --secret hosting:token <token>` or the HOSTING_TOKEN environment variable$/,
  ],
  [
    "a redirect",
    ((_q, r) => {
      r.writeHead(302, { location: "https://login.example.test/" });
      r.end();
    }) as Reply,
    {},
    /redirects are not followed: check that hosting:apiUrl \(or HOSTING_API_URL\) is the API's base URL$/,
  ],
  [
    "a page that is not JSON",
    text(200, "<html>login</html>"),
    {},
    /not JSON \(login\); check that hosting:apiUrl \(or HOSTING_API_URL\) is the Hosting API's base URL$/,
  ],
  [
    "a reply past hosting:maxResponseMiB",
    json(200, [{ pad: "x".repeat(2 * 1024 * 1024) }]),
    { "hosting:maxResponseMiB": "1" },
    /larger than 1 MiB, refused; raise hosting:maxResponseMiB if such a reply is expected: set it with `pulumi config set hosting:maxResponseMiB <MiB>` or the HOSTING_MAX_RESPONSE_MIB/,
  ],
] as const)(
  "%s: the provider's error names the stack setting in place of the client's option",
  async (_label, reply, config, hint) => {
    const { direct, provider } = await viaProvider(reply, config);
    expect(direct.message).not.toMatch(/hosting:|pulumi/i);
    expect(direct.fix).toBeDefined();
    expect(provider.code).toBe(direct.code);
    expect(provider.message).toMatch(hint);
    expect(provider.message).not.toMatch(CLIENT_OPTIONS);
    expect(provider.message.match(/hosting:[a-zA-Z]+/g)!.length).toBeLessThanOrEqual(2);
  },
);

test("nothing listening: the provider names hosting:apiUrl, not the client's option", async () => {
  const fx = await fixtureServer([json(200, [])]);
  await fx.close();
  await configure({ "hosting:apiUrl": fx.url, "hosting:token": FAKE_TOKEN });
  const err = (await providerHandlers("App")
    .read("app-1", {})
    .catch((e: unknown) => e)) as HostingError;
  expect(err.code).toBe("HOSTING_CONNECTION_FAILED");
  expect(err.message).toMatch(
    /ECONNREFUSED\); check hosting:apiUrl \(or HOSTING_API_URL\) and that the service is reachable$/,
  );
  expect(err.message).not.toMatch(CLIENT_OPTIONS);
});

test("a named account's refused token names that account's key and variable", async () => {
  const { provider } = await viaProvider(
    json(401, { error: "token expired" }),
    { "hosting:accounts": JSON.stringify({ shared: { token: FAKE_TOKEN } }) },
    { account: "shared" },
  );
  expect(provider.message).toMatch(
    /check hosting:accounts\.shared\.token: .*`pulumi config set --secret --path hosting:accounts\.shared\.token <token>` or the HOSTING_SHARED_TOKEN environment variable$/,
  );
  expect(provider.message).not.toMatch(/hosting:token|token option/);
});

test("the hint is added once, and errors without a known code are left alone", () => {
  const details = { status: 401, bodyMessage: "no", method: "GET", path: "/apps" };
  const err = withProviderHint(withProviderHint(makeApiError("listApps", details)));
  expect(err.message.match(/hosting:token/g)).toHaveLength(2); // "check hosting:token: … hosting:token <token>"
  expect(err.stack).toContain(err.message);
  const plain = new Error("401 hosting");
  expect(withProviderHint(plain).message).toBe("401 hosting");
  expect(providerHint(plain)).toBe(undefined);
});

test("a lost reply's failure gets the provider's words too, in place of the client's", () => {
  const err = new HostingReplyTooLargeError("createApp", "POST", "/apps", 1024 * 1024);
  const failure = err.message;
  err.message = `${failure}; it may have been applied: list the apps before retrying`;
  err.lostReply = { failure, check: "list the apps" };
  withProviderHint(err);
  expect(err.message).toMatch(/refused; raise hosting:maxResponseMiB .*; it may have been applied/);
  expect(err.lostReply.failure).toMatch(/refused; raise hosting:maxResponseMiB /);
  expect(`${err.message} ${err.lostReply.failure}`).not.toMatch(CLIENT_OPTIONS);
});
