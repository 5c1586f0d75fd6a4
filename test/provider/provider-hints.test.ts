import type * as pulumi from "@pulumi/pulumi";
import { HostingClient } from "../../src/api";
import { makeApiError } from "../../src/api/errors/make-api-error";
import { providerHandlers } from "../../src/provider/handlers";
import { providerHint, withProviderHint } from "../../src/provider/errors/provider-hints";
import { FAKE_TOKEN, fixtureServer, json, text } from "../helpers/fixture-server";

/*
 * The client speaks no Pulumi; the provider says which stack setting to fix, by error code.
 */

const configure = (values: Record<string, string>) =>
  providerHandlers("App").configure({
    config: new Map(Object.entries(values)),
  } as unknown as pulumi.dynamic.ConfigureRequest);

test.each([
  [
    "a refused token",
    json(401, { error: "token expired" }),
    /check hosting:token: set it with `pulumi config set --secret hosting:token/,
  ],
  [
    "a redirect",
    (_q: unknown, r: import("node:http").ServerResponse) => {
      r.writeHead(302, { location: "https://login.example.test/" });
      r.end();
    },
    /check hosting:apiUrl \(or HOSTING_API_URL/,
  ],
  [
    "a page that is not JSON",
    text(200, "<html>login</html>"),
    /check hosting:apiUrl \(or HOSTING_API_URL/,
  ],
] as const)(
  "%s: the provider's error names the stack setting; the client's does not",
  async (_label, reply, hint) => {
    const fx = await fixtureServer([reply as Parameters<typeof fixtureServer>[0][number]]);
    try {
      const client = new HostingClient({ apiUrl: fx.url, token: FAKE_TOKEN, maxRetries: 0 });
      const direct = (await client.listApps().catch((e: unknown) => e)) as Error;
      await client.close();
      expect(direct.message).not.toMatch(/hosting:|pulumi/i);

      await configure({ "hosting:apiUrl": fx.url, "hosting:token": FAKE_TOKEN });
      const viaProvider = (await providerHandlers("App")
        .read("app-1", {})
        .catch((e: unknown) => e)) as Error;
      expect(viaProvider.message).toMatch(hint);
      expect(
        viaProvider.message.match(/hosting:apiUrl|hosting:token/g)!.length,
      ).toBeLessThanOrEqual(2);
    } finally {
      await fx.close();
    }
  },
);

test("the hint is added once, and errors without a known code are left alone", () => {
  const details = { status: 401, bodyMessage: "no", method: "GET", path: "/apps" };
  const err = withProviderHint(withProviderHint(makeApiError("listApps", details)));
  expect(err.message.match(/hosting:token/g)).toHaveLength(2); // "check hosting:token: … hosting:token <token>"
  expect(err.stack).toContain(err.message);
  const plain = new Error("401 hosting");
  expect(withProviderHint(plain).message).toBe("401 hosting");
  expect(providerHint(plain)).toBe(undefined);
});
