import {
  AuthenticationError,
  BadRequestError,
  ConflictError,
  HostingApiError,
  HostingConnectionError,
  HostingError,
  HostingResponseError,
  HostingTimeoutError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  RetentionPeriodError,
  ServerError,
  UnprocessableEntityError,
  HostingClient,
} from "../../src/api";
import { newApp as makeApp, useEmulator } from "../helpers/emulator";
import { FAKE_TOKEN, fixtureServer, json, text } from "../helpers/fixture-server";

const env = useEmulator({ setupDelayMs: 0 });

async function caught(p: Promise<unknown>): Promise<HostingError> {
  try {
    await p;
  } catch (err) {
    return err as HostingError;
  }
  throw new Error("expected a rejection");
}

const newApp = (name: string, extra: Record<string, unknown> = {}) =>
  makeApp(env.client(), name, extra);

describe("status → error class, with status, body message, method and path", () => {
  test("400: dashboard without analytics is a BadRequestError naming the fix", async () => {
    const { id } = await newApp("no-analytics");
    const err = await caught(env.client().getDashboardData(id, { minutes: 5 }));
    expect(err).toBeInstanceOf(BadRequestError);
    expect(err).toMatchObject({ status: 400, method: "GET", code: "HOSTING_BAD_REQUEST" });
    expect((err as HostingApiError).bodyMessage).toMatch(/analytics/);
    expect((err as HostingApiError).path).toBe(`/apps/${id}/dashboard-data`);
  });

  test("401: a token the server does not accept", async () => {
    const c = new HostingClient({ apiUrl: env.emu.url, token: FAKE_TOKEN });
    const err = await caught(c.listApps());
    await c.close();
    expect(err).toBeInstanceOf(AuthenticationError);
    expect((err as HostingApiError).status).toBe(401);
  });

  test("403 on backup deletion is a RetentionPeriodError (and a PermissionDeniedError)", async () => {
    const c = env.client();
    const [db] = await c.listDatabases();
    const young = env.emu.world.backups
      .filter((b) => b.project_id === db.database.id)
      .reduce((a, b) => (a.created_at > b.created_at ? a : b));
    const err = await caught(c.deleteBackup(db.database.id, young.id));
    expect(err).toBeInstanceOf(RetentionPeriodError);
    expect(err).toBeInstanceOf(PermissionDeniedError);
    expect(err.code).toBe("HOSTING_BACKUP_RETENTION");
    expect(env.emu.world.backups.some((b) => b.id === young.id)).toBe(true);
  });

  test("404: another user's app is not found, exactly like a missing one", async () => {
    const { id } = await newApp("alice-only");
    const err = await caught(env.client({ user: "bob" }).getAppMetrics(id, { minutes: 5 }));
    expect(err).toBeInstanceOf(NotFoundError);
  });

  test("409: a subdomain that is taken", async () => {
    await newApp("first", { subdomain: "taken" });
    const err = await caught(newApp("second", { subdomain: "taken" }));
    expect(err).toBeInstanceOf(ConflictError);
    expect((err as HostingApiError).bodyMessage).toMatch(/taken/);
  });

  test("422: a runtime the platform does not offer", async () => {
    const err = await caught(newApp("old", { runtime: { language: "node", version: "0.10" } }));
    expect(err).toBeInstanceOf(UnprocessableEntityError);
  });

  test("429: still rate limited at the throttle deadline is a RateLimitError with retryAfterMs", async () => {
    env.emu.setFaults({ rules: [{ route: "GET /apps", status: 429, retryAfterSeconds: 0 }] });
    try {
      const err = await caught(env.client({ throttleTimeoutMs: 0 }).listApps());
      expect(err).toBeInstanceOf(RateLimitError);
      expect((err as RateLimitError).retryAfterMs).toBe(0);
    } finally {
      env.emu.setFaults({});
    }
  });

  test("5xx: a ServerError once retries are spent", async () => {
    env.emu.setFaults({ rules: [{ route: "GET /apps", status: 503 }] });
    env.emu.resetStats();
    try {
      const err = await caught(env.client({ maxRetries: 1 }).listApps());
      expect(err).toBeInstanceOf(ServerError);
      expect(env.emu.stats().requests["GET /apps"]).toBe(2);
    } finally {
      env.emu.setFaults({});
    }
  });

  test("a non-JSON error page becomes an error with the status and a short snippet", async () => {
    const fx = await fixtureServer([
      text(
        502,
        "<html><body><h1>502 Bad Gateway</h1><p>nginx</p>" + "x".repeat(5000) + "</body></html>",
      ),
    ]);
    const c = new HostingClient({ apiUrl: fx.url, token: FAKE_TOKEN, maxRetries: 0 });
    const err = (await caught(c.listApps())) as HostingApiError;
    await c.close();
    await fx.close();
    expect(err).toBeInstanceOf(ServerError);
    expect(err.status).toBe(502);
    expect(err.bodyMessage).toMatch(/^non-JSON error body: 502 Bad Gateway nginx/);
    expect(err.message.length).toBeLessThan(300);
  });

  test("a body of the wrong shape is a HostingResponseError naming the operation and field", async () => {
    const fx = await fixtureServer([json(200, [{ app: { id: "a", ram: "lots" } }])]);
    const c = new HostingClient({ apiUrl: fx.url, token: FAKE_TOKEN });
    const err = (await caught(c.listApps())) as HostingResponseError;
    await c.close();
    await fx.close();
    expect(err).toBeInstanceOf(HostingResponseError);
    expect(err.operation).toBe("listApps");
    expect(err.fieldPath).toBe("[0].app.ram");
    expect(err.message).not.toMatch(/ZodError|"code":/);
  });

  test("a 200 HTML page (a login page, a wrong apiUrl) says it is not JSON and to check apiUrl", async () => {
    const fx = await fixtureServer([text(200, "<html><body>login page</body></html>")]);
    const c = new HostingClient({ apiUrl: fx.url, token: FAKE_TOKEN });
    const err = (await caught(c.listApps())) as HostingResponseError;
    await c.close();
    await fx.close();
    expect(err).toBeInstanceOf(HostingResponseError);
    expect(err.message).toBe(
      "listApps: unexpected response body from the Hosting API: the reply is not JSON (login page); " +
        "check that the apiUrl option is the Hosting API's base URL",
    );
    expect(err.fix).toMatchObject({ option: "apiUrl" });
    expect(fx.seen).toHaveLength(1);
  });

  test("a JSON body of the wrong type names the body, not a garbled path", async () => {
    const fx = await fixtureServer([json(200, "a string")]);
    const c = new HostingClient({ apiUrl: fx.url, token: FAKE_TOKEN });
    const err = (await caught(c.listApps())) as HostingResponseError;
    await c.close();
    await fx.close();
    expect(err.message).toMatch(/^listApps: unexpected response body from the Hosting API: /);
    expect(err.message).not.toContain("(body)");
  });

  test("unknown extra fields and absent 'not shown' fields are accepted", async () => {
    const fx = await fixtureServer([json(200, [{ app: { id: "a", future_field: 1 } }])]);
    const c = new HostingClient({ apiUrl: fx.url, token: FAKE_TOKEN });
    const apps = await c.listApps();
    await c.close();
    await fx.close();
    expect(apps[0].app).toMatchObject({ id: "a", future_field: 1 });
  });

  test("a refused connection is a HostingConnectionError with the socket error as cause", async () => {
    const fx = await fixtureServer([json(200, [])]);
    await fx.close();
    const c = new HostingClient({ apiUrl: fx.url, token: FAKE_TOKEN, maxRetries: 0 });
    const err = await caught(c.listApps());
    await c.close();
    expect(err).toBeInstanceOf(HostingConnectionError);
    expect((err as Error & { cause?: { code?: string } }).cause?.code).toBe("ECONNREFUSED");
  });

  test("a reply slower than timeoutMs is a HostingTimeoutError", async () => {
    env.emu.setFaults({ rules: [{ route: "GET /apps", latencyMs: 800 }] });
    try {
      const err = await caught(env.client({ timeoutMs: 200, maxRetries: 0 }).listApps());
      expect(err).toBeInstanceOf(HostingTimeoutError);
      expect(err.code).toBe("HOSTING_TIMEOUT");
    } finally {
      env.emu.setFaults({});
    }
  });
});

describe("instanceof across copies", () => {
  test("recognises errors made by a second loaded copy of the package", () => {
    let Other: typeof NotFoundError | undefined;
    jest.isolateModules(() => {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      Other = require("../../src/api").NotFoundError;
    });
    expect(Other).not.toBe(NotFoundError);
    const foreign = new Other!({ status: 404, bodyMessage: "gone", method: "GET", path: "/apps" });
    expect(foreign instanceof NotFoundError).toBe(true);
    expect(foreign instanceof HostingApiError).toBe(true);
    expect(foreign instanceof HostingError).toBe(true);
    expect(foreign instanceof ConflictError).toBe(false);
    expect(new Error("plain") instanceof HostingError).toBe(false);
    // The deprecated helper says the same.
    expect(NotFoundError.isInstance(foreign)).toBe(true);
    expect(ConflictError.isInstance(foreign)).toBe(false);
  });
});
