import { inspect } from "node:util";
import { HostingClient, HostingConfigError, HostingInputError } from "../../src/api";
import { useEmulator } from "../helpers/emulator";
import { makeZip } from "../helpers/zip";

const env = useEmulator({ setupDelayMs: 0 });

describe("the token never leaks", () => {
  test("not in util.inspect, JSON or any error the client throws", async () => {
    const token = env.emu.issueToken();
    const client = new HostingClient({ apiUrl: env.emu.url, token, maxRetries: 0 });
    const texts = [inspect(client, { depth: 10, showHidden: true }), JSON.stringify(client)];
    const failures: Array<() => Promise<unknown>> = [
      () => client.getAppMetrics("00000000-0000-4000-8000-000000000000", { minutes: 5 }),
      () => client.deleteBackup("p", "b"),
      () => client.getDashboardData("x", { minutes: 0 }),
      () => {
        env.emu.setFaults({ rules: [{ route: "GET /apps", reset: true }] });
        return client.listApps();
      },
    ];
    try {
      for (const call of failures) {
        const err = await call().catch((e: unknown) => e);
        expect(err).toBeInstanceOf(Error);
        texts.push(String(err), inspect(err, { depth: 10, showHidden: true }), JSON.stringify(err));
      }
    } finally {
      env.emu.setFaults({});
      await client.close();
    }
    for (const t of texts) expect(t).not.toContain(token);
    expect(texts[0]).toContain("[redacted]");
  });

  test("a token that is not a JWT fails construction, without echoing it", () => {
    const secret = "sk_live_not_a_jwt_1234567890";
    let err: unknown;
    try {
      new HostingClient({ apiUrl: env.emu.url, token: secret });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(HostingConfigError);
    expect(String(err)).toMatch(/does not look like a JWT/);
    expect(String(err)).not.toContain(secret);
  });
});

describe("the API URL", () => {
  const token = "aaa.bbb.ccc";
  test("plain http to a remote host is refused unless allowInsecureHttp", () => {
    expect(() => new HostingClient({ apiUrl: "http://api.example.com/v2", token })).toThrow(
      /must use https/,
    );
    expect(
      () =>
        new HostingClient({ apiUrl: "http://api.example.com/v2", token, allowInsecureHttp: true }),
    ).not.toThrow();
    expect(() => new HostingClient({ apiUrl: "https://api.example.com/v2", token })).not.toThrow();
    expect(() => new HostingClient({ apiUrl: "http://127.0.0.1:8080", token })).not.toThrow();
  });
  test("a URL with credentials in it, or no URL at all, is refused", () => {
    expect(() => new HostingClient({ apiUrl: "https://u:p@api.example.com", token })).toThrow(
      /must not carry credentials/,
    );
    expect(() => new HostingClient({ apiUrl: "", token })).toThrow(/URL is missing/);
  });
  test("a token passed as the URL is described, never quoted", () => {
    const secret = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJlLXNlY3JldA";
    const err = (() => {
      try {
        new HostingClient({ apiUrl: secret, token: secret });
      } catch (e) {
        return e as Error;
      }
    })();
    expect(err?.message).toMatch(/The Hosting API URL is not a URL .*looks like an API token/);
    expect(err?.message).not.toContain(secret.slice(0, 12));
  });
});

describe("path parameters", () => {
  test.each([[".."], ["."], [""], ["a/b"], ["..%2f"], ["x\\y"]])(
    "%j is rejected before any request, so no ID can reach another endpoint",
    async (bad) => {
      env.emu.resetStats();
      const c = env.client();
      const err = await c.deleteApp(bad).catch((e: unknown) => e);
      if (bad === "..%2f") {
        // Not a traversal once encoded: it is sent, percent-encoded, and simply not found.
        expect(err).toMatchObject({ status: 404, path: "/apps/..%252f" });
        return;
      }
      expect(err).toBeInstanceOf(HostingInputError);
      expect((err as HostingInputError).property).toBe("app_id");
      expect(env.emu.stats().total).toBe(0);
    },
  );

  test("IDs are percent-encoded", async () => {
    const err = await env
      .client()
      .listDeployments("a b?c#d")
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 404, path: "/apps/a%20b%3Fc%23d/deploys" });
  });
});

describe("other bad input is caught before any request", () => {
  test("a missing archive, a bad env key, a bad window", async () => {
    env.emu.resetStats();
    const c = env.client();
    await expect(c.createApp({ archivePath: "/nonexistent/app.zip" })).rejects.toMatchObject({
      property: "archivePath",
    });
    const zip = await makeZip({ "index.js": "" });
    await expect(c.createApp({ archivePath: zip, env: { "BAD-KEY": "x" } })).rejects.toMatchObject({
      property: "env.BAD-KEY",
    });
    await expect(c.getAppMetrics("x", { minutes: 1.5 })).rejects.toMatchObject({
      property: "minutes",
    });
    expect(env.emu.stats().total).toBe(0);
  });
});
